export default function PagePreviewRoute() {
  return null;
}
