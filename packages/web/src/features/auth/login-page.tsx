import { GuestFrame } from '../../components/guest-frame';
import { useTitle } from '../../lib/use-title';
import { LoginForm } from './login-form';

export function LoginPage() {
  useTitle('Вход');
  // once signed in, GuestOnly sends the user on to the wanted URL
  return (
    <GuestFrame>
      <LoginForm />
    </GuestFrame>
  );
}
