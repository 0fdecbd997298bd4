/**
 * Keeps the page's title on the page's own heading: `<first h1> · <app name>` (the heading alone when it
 * names the app, the app name alone on a page without one). Each route's heading is already in the chosen language and changes with it, so
 * the title follows navigation and a language switch with no table of its own. Returns the stop.
 */
export function followPageTitle(root: Element, appName: string, doc: Document = document): () => void {
  const update = () => {
    const heading = root.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim();
    // A heading that names the app already ("Sign in to Portico") is the whole title.
    const title = !heading ? appName : heading.includes(appName) ? heading : `${heading} · ${appName}`;
    if (doc.title !== title) doc.title = title;
  };
  const observer = new MutationObserver(update);
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  update();
  return () => observer.disconnect();
}
