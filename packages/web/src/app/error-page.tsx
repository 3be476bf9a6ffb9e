import { Link } from 'react-router';
import { GuestFrame } from '../components/guest-frame';
import { Button, Card } from '../components/ui';
import { useTitle } from '../lib/use-title';

/** The router's page for an unknown address or a failed route. */
export function ErrorPage() {
  useTitle('Ошибка');
  return (
    <GuestFrame>
      <Card className="w-full max-w-md text-center">
        <h1 className="mb-6 font-bold text-2xl">Произошла ошибка</h1>
        <Link to="/">
          <Button color="info">На главную</Button>
        </Link>
      </Card>
    </GuestFrame>
  );
}
