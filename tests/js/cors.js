// The CORS answers of the tests' HTTP servers (http_server.js, layout_server.js): a page on
// another origin may read the files and their ranges.

/**
 * CORS for a page on another origin: the headers (with `cors`) and a preflight's 204, which
 * answers the request (true); false for any other request.
 * @param {import('node:http').IncomingMessage | import('node:http2').Http2ServerRequest} req
 * @param {import('node:http').ServerResponse | import('node:http2').Http2ServerResponse} res
 */
export function answerCors(req, res, cors = true) {
  if (cors) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Range, ETag, Content-Length');
  }
  if (req.method !== 'OPTIONS') return false;
  res.setHeader('Access-Control-Allow-Headers', '*');
  res.writeHead(204).end();
  return true;
}
