export default function BusinessPageEditorRoute() {
  return null;
}
