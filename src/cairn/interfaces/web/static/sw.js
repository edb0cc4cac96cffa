/* Cairn web page: the service worker (served at /sw.js). Keeps an offline shell: the page's
   own CSS, scripts, icons and the last chat page seen; everything else goes to the network
   (search results and notes are never cached, they are the person's data). */
"use strict";
var SHELL = "cairn-shell-v1";
var FILES = ["/static/web/app.css", "/static/web/app.js", "/static/web/chat.js",
             "/static/web/cairn.svg", "/static/web/icon-192.png", "/chat"];

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(SHELL).then(function (c) { return c.addAll(FILES); }).then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== SHELL; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});
self.addEventListener("fetch", function (e) {
  var url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== self.location.origin) return;
  var shell = url.pathname.indexOf("/static/web/") === 0 || url.pathname === "/chat";
  if (!shell) return;
  /* network first (the page is always current when the server answers), the shell when not */
  e.respondWith(fetch(e.request).then(function (resp) {
    if (resp.ok && url.search === "") {
      var copy = resp.clone();
      caches.open(SHELL).then(function (c) { c.put(e.request, copy); });
    }
    return resp;
  }).catch(function () {
    return caches.match(url.pathname === "/chat" ? "/chat" : e.request);
  }));
});
