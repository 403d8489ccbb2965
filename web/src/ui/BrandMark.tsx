/** The platform's mark: a box with a handle (same drawing as the favicon). */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#c2410c" />
      <path d="M14 26h36l-4 26H18z" fill="#fff7ed" />
      <path d="M22 26c0-8 4-14 10-14s10 6 10 14" stroke="#fff7ed" strokeWidth="5" fill="none" strokeLinecap="round" />
    </svg>
  );
}
