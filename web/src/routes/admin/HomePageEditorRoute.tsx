export default function HomePageEditorRoute() {
  return null;
}
