/** A small history router for the console's few pages (paths relative to /console/). */
import { createContext, useContext, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const BASE = import.meta.env.BASE_URL.replace(/\/$/, '');

/** The app's path without the /console prefix, e.g. "/batches/12". */
const current = () => location.pathname.slice(BASE.length) || '/';

const RouteContext = createContext<{ path: string; navigate: (to: string) => void }>({
  path: '/',
  navigate: () => undefined,
});

export function RouterProvider({ children }: { children: React.ReactNode }) {
  const [path, setPath] = useState(current);
  useEffect(() => {
    const onPop = () => setPath(current());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const navigate = (to: string) => {
    history.pushState(null, '', BASE + to);
    setPath(current());
    scrollTo(0, 0);
  };
  return <RouteContext.Provider value={{ path, navigate }}>{children}</RouteContext.Provider>;
}

export const useRoute = () => useContext(RouteContext);

/** An in-app link: a real <a href> (open in new tab works) that navigates without a reload. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const { navigate } = useRoute();
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={BASE + to} onClick={onClick} {...rest} />;
}
