/** Work in progress (issue 6): replaced by the real page before this lands. */
export default function ViewerPage() {
  return null;
}
