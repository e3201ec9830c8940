/**
 * The path of a request target, without its query: read on every answer by the rate limit and the request log, so
 * it slices once rather than splitting the URL into an array. (Not `request.routeOptions`: that getter builds an
 * object on every read.)
 */
export const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};
