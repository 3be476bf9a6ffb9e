/** An @mdi/js path drawn as an inline SVG (tree-shaken: only the icons used are bundled). */
export function Icon({
  path,
  size = 18,
  className = '',
}: {
  path: string;
  size?: number;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      className={`inline-block ${className}`}
      aria-hidden="true"
    >
      <path fill="currentColor" d={path} />
    </svg>
  );
}
