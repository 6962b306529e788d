export const probe = true; // imported by ./index.html: the smallest module a page can import
