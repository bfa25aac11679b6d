// SPDX-License-Identifier: MIT
// The archive's viewer: browses a `flickr backup` archive, or a Data Lifeboat, from disk (file://).
// Data comes as scripts (a page from disk may not fetch() files): the archive's viewer/data/*.js
// call archiveData(kind, chunk, value); a Lifeboat's metadata/*.js declare `const name = {...}`.
// Every text from Flickr goes into the page as text (textContent, attributes), never as HTML.
"use strict";

(() => {
  const root = document.documentElement;
  const KIND = root.dataset.kind, ASSETS = root.dataset.assets, DATA = root.dataset.data, MEDIA = root.dataset.media;
  const CELL_W = 200, CELL_H = 236;  // a grid cell's box, in CSS pixels
  const $ = (id) => document.getElementById(id);

  // -- Small helpers ---------------------------------------------------------------------------

  // An element with attributes (set as attributes: never parsed as HTML) and children (text or nodes).
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) {
      if (child !== null && child !== undefined && child !== "") node.append(child);
    }
    return node;
  }

  // A media path of the data (relative, `/`-separated) as a URL: each part percent-encoded.
  function mediaUrl(path) {
    return MEDIA + String(path).split("/").map(encodeURIComponent).join("/");
  }

  // Only web links are links: a licence URL or a gallery's from the data could be `javascript:`.
  function webUrl(url) {
    return /^https?:\/\/[^\s]+$/i.test(String(url || "")) ? String(url) : null;
  }

  // Flickr's descriptions hold some HTML: shown as text, tags taken out (never parsed).
  function plain(text) {
    return String(text || "").replace(/<[^>]*>/g, "").replace(/&quot;/g, "\"").replace(/&#0?39;/g, "'")
      .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }

  // As viewerdata.py's folded(): lower case, compatibility forms and accents off ("Café" is "cafe").
  function fold(text) {
    return String(text).toLowerCase().normalize("NFKD").replace(/\p{Mn}/gu, "");
  }

  function when(value) {
    if (value === null || value === undefined || value === "" || value === 0) return "";
    if (typeof value === "number") return new Date(value * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
    return String(value).replace("T", " ");
  }

  const scripts = new Map();
  function loadScript(src) {
    if (!scripts.has(src)) {
      scripts.set(src, new Promise((resolve, reject) => {
        const script = el("script", {src});
        script.onload = () => resolve();
        script.onerror = () => reject(new Error(`${src} could not be loaded`));
        document.head.append(script);
      }));
    }
    return scripts.get(src);
  }

  // -- Data sources ----------------------------------------------------------------------------
  // Both give: title, count, ids, taken (YYYY-MM-DD or ""), license (ids), flags, licenses,
  // albums (with member positions), collections, galleries, geo ([position, lat, lon]...);
  // summary(n) (title, thumbnail, video: what a grid cell shows, or null until loaded),
  // need(n) (a promise of that), item(n) (a promise of the full record), searchText(n) after
  // loadSearch().

  const received = new Map();
  const waiting = new Map();
  window.archiveData = (kind, chunk, value) => {
    const key = `${kind}-${chunk}`;
    received.set(key, value);
    for (const resolve of waiting.get(key) || []) resolve(value);
    waiting.delete(key);
  };
  function chunkFile(kind, chunk) {
    return `${DATA}${kind}-${String(chunk + 1).padStart(4, "0")}.js`;
  }
  function archiveChunk(kind, chunk) {
    const key = `${kind}-${chunk}`;
    if (received.has(key)) return Promise.resolve(received.get(key));
    const promise = new Promise((resolve) => {
      if (!waiting.has(key)) waiting.set(key, []);
      waiting.get(key).push(resolve);
    });
    return loadScript(kind === "index" ? `${DATA}index.js` : chunkFile(kind, chunk)).then(() => promise);
  }

  async function archiveSource() {
    const index = await archiveChunk("index", 0);
    const size = index.chunk;
    const summary = (n) => {
      const part = received.get(`items-${Math.floor(n / size)}`);
      return part ? part[n % size] : null;
    };
    const need = (n) => archiveChunk("items", Math.floor(n / size)).then((part) => part[n % size]);
    const texts = [];
    return {
      ...index, summary, need, item: need,
      thumbnail: (record) => record.path,
      // Every search chunk at once: one after another, 200 of them (100,000 items) took 5 s.
      loadSearch: async (progress) => {
        const chunks = Math.ceil(index.count / size);
        let done = 0;
        await Promise.all(Array.from({length: chunks}, (_, c) => archiveChunk("search", c).then((part) => {
          texts[c] = part;
          progress(++done, chunks);
        })));
      },
      searchText: (n) => texts[Math.floor(n / size)][n % size],
    };
  }

  // A Lifeboat's metadata files declare `const photoIndex = ...`: global names, read here by name.
  function lifeboatGlobal(name) {
    switch (name) {
      case "lifeboat": return typeof lifeboat === "undefined" ? {} : lifeboat;  // eslint-disable-line no-undef
      case "photoIndex": return typeof photoIndex === "undefined" ? {} : photoIndex;  // eslint-disable-line no-undef
      case "licenseIndex": return typeof licenseIndex === "undefined" ? {} : licenseIndex;  // eslint-disable-line no-undef
      case "contributorIndex": return typeof contributorIndex === "undefined" ? {} : contributorIndex;  // eslint-disable-line no-undef
      case "albumIndex": return typeof albumIndex === "undefined" ? {} : albumIndex;  // eslint-disable-line no-undef
      case "galleryIndex": return typeof galleryIndex === "undefined" ? {} : galleryIndex;  // eslint-disable-line no-undef
      default: return {};
    }
  }

  // Each photo file declares the same name (`const photo`), so each is run in a frame of its own
  // (srcdoc: the page's origin and base), whose loader script hands it back.
  const photoWaits = new Map();
  window.lifeboatPhoto = (id, photo) => {
    const resolve = photoWaits.get(id);
    photoWaits.delete(id);
    if (resolve) resolve(photo);
  };
  function lifeboatPhoto(id) {
    return new Promise((resolve) => {
      const frame = el("iframe", {hidden: true, title: "loader"});
      photoWaits.set(String(id), (photo) => { frame.remove(); resolve(photo); });
      const src = `${DATA}photos/${encodeURIComponent(id)}.js`;
      frame.srcdoc = `<!DOCTYPE html><meta charset="utf-8"><body data-id="${encodeURIComponent(id)}">` +
        `<script src="${src}"></script><script src="${ASSETS}photo-loader.js"></script>`;
      document.body.append(frame);
    });
  }

  async function lifeboatSource() {
    for (const name of ["lifeboat", "photoIndex", "licenseIndex", "contributorIndex", "albumIndex", "galleryIndex"]) {
      await loadScript(`${DATA}${name}.js`).catch(() => null);
    }
    const boat = lifeboatGlobal("lifeboat"), photos = lifeboatGlobal("photoIndex");
    const licenses = {};
    for (const [id, entry] of Object.entries(lifeboatGlobal("licenseIndex"))) {
      licenses[id] = {name: entry.label || "", url: entry.url || ""};
    }
    const takenOf = (entry) => (entry.dateTaken && entry.dateTaken.value ? String(entry.dateTaken.value).slice(0, 10) : "");
    const ids = Object.keys(photos).sort((a, b) => takenOf(photos[b]).localeCompare(takenOf(photos[a])) || b.localeCompare(a));
    const position = new Map(ids.map((id, n) => [id, n]));
    const summaries = ids.map((id) => ({id, title: String(photos[id].title || ""),
      thumb: photos[id].thumbnail && photos[id].thumbnail.path, media: "photo"}));
    const people = lifeboatGlobal("contributorIndex");
    const groupOf = (index) => Object.entries(index).map(([id, entry]) => ({
      id, title: String(entry.title || ""), description: String(entry.description || ""),
      items: (entry.photoIds || []).filter((p) => position.has(p)).map((p) => position.get(p)), others: [], url: ""}));
    const records = new Map();
    // One load a photo (the promise kept): two at once would make two frames for one answer.
    const item = (n) => {
      if (!records.has(n)) records.set(n, load(n));
      return records.get(n);
    };
    const load = async (n) => {
      const photo = (await lifeboatPhoto(ids[n])) || {id: ids[n]};
      const file = (f) => (f && typeof f === "object" ? f.path : f);
      const record = {
        id: ids[n], title: String(photo.title || ""), description: String(photo.description || ""),
        media: photo.mediaType || photo.media || "photo", path: file((photo.files || {}).original),
        thumb: file((photo.files || {}).thumbnail), tags: (photo.tags || []).map((t) => t.rawValue || t.normalizedValue),
        license: photo.licenseId,
        taken: photo.dateTaken ? photo.dateTaken.value : "", uploaded: photo.dateUploaded,
        place: photo.location ? {latitude: photo.location.latitude, longitude: photo.location.longitude, names: []} : null,
        camera: "", albums: photo.albumIds || [], url: photo.url || "", deleted: false,
        comments: (photo.comments || []).map((c) => ({author: (people[c.authorId] || {}).username || c.authorId,
                                                      date: c.date, text: c.text})),
      };
      return record;
    };
    let geo = null;
    const texts = [];
    return {
      title: boat.name || "Data Lifeboat", count: ids.length, ids, taken: ids.map((id) => takenOf(photos[id])),
      license: ids.map((id) => photos[id].licenseId), flags: ids.map(() => 0), licenses,
      albums: groupOf(lifeboatGlobal("albumIndex")), galleries: groupOf(lifeboatGlobal("galleryIndex")), collections: [],
      summary: (n) => summaries[n], need: (n) => Promise.resolve(summaries[n]), item,
      thumbnail: (record) => record.thumb || record.path,
      // Descriptions are in the photo files only (the index holds titles and tags): all read at
      // the first search, a few frames at a time.
      loadSearch: async (progress) => {
        let next = 0, done = 0;
        const reader = async () => {
          while (next < ids.length) {
            const n = next++;
            const record = await item(n);
            texts[n] = fold([summaries[n].title, record.description, ...record.tags, ...(photos[ids[n]].tags || [])]
              .join("\n"));
            progress(++done, ids.length);
          }
        };
        await Promise.all(Array.from({length: Math.min(8, ids.length)}, reader));
      },
      searchText: (n) => texts[n],
      // The index has no places: the map reads each photo's file (a Lifeboat is small).
      loadGeo: async () => {
        if (geo) return geo;
        geo = [];
        for (let n = 0; n < ids.length; n++) {
          const record = await item(n);
          if (record.place) geo.push(n, record.place.latitude, record.place.longitude);
        }
        return geo;
      },
    };
  }

  // -- State -----------------------------------------------------------------------------------

  let store = null;
  let list = [];        // positions of the items shown, in order
  let listKind = "all"; // what the list is of: "all", "album", "gallery"
  let scope = null;     // the album or gallery the list is of
  let searchReady = false;

  function filters() {
    return {q: fold($("q").value).trim().split(/\s+/).filter(Boolean), from: $("from").value, to: $("to").value,
            album: $("album").value, license: $("license").value};
  }

  async function computeList() {
    const f = filters();
    let candidates = scope ? scope.items.slice() : store.ids.map((_, n) => n);
    if (f.q.length && !searchReady) {
      await store.loadSearch((done, total) => { $("status").textContent = `Loading the search index… ${done}/${total}`; });
      searchReady = true;
    }
    const inAlbum = f.album ? new Set((store.albums.find((a) => a.id === f.album) || {items: []}).items) : null;
    candidates = candidates.filter((n) => {
      if (f.from && (!store.taken[n] || store.taken[n] < f.from)) return false;
      if (f.to && (!store.taken[n] || store.taken[n] > f.to)) return false;
      if (f.license && String(store.license[n]) !== f.license) return false;
      if (inAlbum && !inAlbum.has(n)) return false;
      if (f.q.length) {
        const text = store.searchText(n);
        return f.q.every((word) => text.includes(word));
      }
      return true;
    });
    return candidates;
  }

  // -- The grid: only the rows on screen (and one either side) exist in the page ----------------

  const grid = $("grid");
  const cells = new Map();  // list position -> cell
  let columns = 1;

  function fillCell(cell, n) {
    const summary = store.summary(n);
    cell.replaceChildren();
    const flags = store.flags[n];
    const box = el("span", {class: "thumb"});
    if (summary) {
      const thumb = store.thumbnail(summary);
      if (flags & 1 || summary.media === "video") {
        box.append(el("span", {class: "video-badge"}, "▶ video"));
      } else if (thumb) {
        box.append(el("img", {src: mediaUrl(thumb), alt: "", loading: "lazy", decoding: "async"}));
      } else {
        box.append(el("span", {class: "missing"}, "no file"));
      }
    }
    cell.append(box, el("span", {class: "caption", dir: "auto"}, summary ? summary.title || "(untitled)" : "…"));
    if (flags & 2) cell.append(el("span", {class: "deleted-badge"}, "deleted on Flickr"));
    if (summary) cell.setAttribute("title", summary.title || "(untitled)");
  }

  function drawGrid() {
    if (grid.hidden) return;
    const width = grid.clientWidth || 1;
    columns = Math.max(1, Math.floor(width / CELL_W));
    const cellWidth = Math.floor(width / columns);
    const rows = Math.ceil(list.length / columns);
    grid.style.height = `${rows * CELL_H}px`;
    const top = grid.getBoundingClientRect().top;
    const first = Math.max(0, Math.floor(-top / CELL_H) - 1);
    const last = Math.min(rows - 1, Math.floor((innerHeight - top) / CELL_H) + 1);
    const wanted = new Set();
    for (let row = first; row <= last; row++) {
      for (let col = 0; col < columns; col++) {
        const at = row * columns + col;
        if (at < list.length) wanted.add(at);
      }
    }
    for (const [at, cell] of cells) {
      if (!wanted.has(at)) { cell.remove(); cells.delete(at); }
    }
    for (const at of wanted) {
      let cell = cells.get(at);
      const n = list[at];
      if (!cell || cell.dataset.n !== String(n)) {
        if (cell) cell.remove();
        cell = el("a", {class: "cell", href: `#/item/${encodeURIComponent(store.ids[n])}`, "data-n": n,
                        "data-id": store.ids[n]});
        fillCell(cell, n);
        if (!store.summary(n)) store.need(n).then(() => { if (cell.isConnected) fillCell(cell, n); });
        cells.set(at, cell);
        grid.append(cell);
      }
      cell.style.transform = `translate(${(at % columns) * cellWidth}px, ${Math.floor(at / columns) * CELL_H}px)`;
      cell.style.width = `${cellWidth - 8}px`;
    }
  }

  function resetGrid() {
    for (const cell of cells.values()) cell.remove();
    cells.clear();
    drawGrid();
  }

  let drawQueued = false;
  const queueDraw = () => {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(() => { drawQueued = false; drawGrid(); });
  };
  addEventListener("scroll", queueDraw, {passive: true});
  addEventListener("resize", queueDraw);

  // Arrow keys move between the grid's cells (their row brought on screen first), Home and End to
  // the list's ends; Enter opens the cell (it is a link).
  grid.addEventListener("keydown", (event) => {
    const cell = event.target.closest(".cell");
    const at = cell ? [...cells].find(([, c]) => c === cell)?.[0] : undefined;
    const moves = {ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns};
    if (at === undefined || !(event.key in moves || event.key === "Home" || event.key === "End")) return;
    event.preventDefault();
    const to = event.key === "Home" ? 0 : event.key === "End" ? list.length - 1
      : Math.min(list.length - 1, Math.max(0, at + moves[event.key]));
    const top = grid.getBoundingClientRect().top + scrollY + Math.floor(to / columns) * CELL_H;
    const header = document.querySelector("header").offsetHeight;
    if (top < scrollY + header) scrollTo(0, top - header - 8);
    else if (top + CELL_H > scrollY + innerHeight) scrollTo(0, top + CELL_H - innerHeight + 8);
    drawGrid();
    const target = cells.get(to);
    if (target) target.focus();
  });

  // -- Pages -----------------------------------------------------------------------------------

  function heading(...children) {
    $("heading").replaceChildren(...children);
  }

  function showPart(part) {
    grid.hidden = part !== "grid";
    $("map").hidden = part !== "map";
    $("pages").hidden = part !== "pages";
    if (part !== "pages") $("pages").replaceChildren();
  }

  function cover(items) {
    const n = items.find((p) => !(store.flags[p] & 1));
    const box = el("span", {class: "thumb"});
    if (n === undefined) return box;
    store.need(n).then((summary) => {
      const thumb = summary && store.thumbnail(summary);
      if (thumb) box.append(el("img", {src: mediaUrl(thumb), alt: "", loading: "lazy"}));
    });
    return box;
  }

  function card(href, title, detail, items) {
    return el("a", {class: "card", href}, cover(items || []), el("span", {class: "caption", dir: "auto"}, title || "(untitled)"),
              el("span", {class: "detail"}, detail));
  }

  function albumsPage() {
    heading(el("h2", {}, "Albums"));
    showPart("pages");
    const pages = $("pages");
    pages.append(el("div", {class: "cards"}, ...store.albums.map((a) =>
      card(`#/album/${encodeURIComponent(a.id)}`, a.title, `${a.items.length} items`, a.items))));
    if (store.collections.length) {
      pages.append(el("h2", {}, "Collections"), el("div", {class: "cards"}, ...store.collections.map((c) =>
        card(`#/collection/${encodeURIComponent(c.id)}`, c.title, `${c.albums.length} albums`, []))));
    }
    if (store.galleries.length) {
      pages.append(el("h2", {}, "Galleries"), el("div", {class: "cards"}, ...store.galleries.map((g) =>
        card(`#/gallery/${encodeURIComponent(g.id)}`, g.title, `${g.items.length + g.others.length} items`, g.items))));
    }
    $("status").textContent = `${store.albums.length} albums`;
  }

  function collectionPage(id) {
    const collection = store.collections.find((c) => c.id === id);
    if (!collection) return notFound("collection");
    heading(el("h2", {dir: "auto"}, collection.title || "(untitled)"),
            el("p", {class: "description", dir: "auto"}, plain(collection.description)));
    showPart("pages");
    const albums = collection.albums.map((a) => store.albums.find((x) => x.id === a)).filter(Boolean);
    const children = collection.collections.map((c) => store.collections.find((x) => x.id === c)).filter(Boolean);
    $("pages").append(el("div", {class: "cards"},
      ...albums.map((a) => card(`#/album/${encodeURIComponent(a.id)}`, a.title, `${a.items.length} items`, a.items)),
      ...children.map((c) => card(`#/collection/${encodeURIComponent(c.id)}`, c.title, `${c.albums.length} albums`, []))));
    $("status").textContent = `${albums.length} albums, ${children.length} collections`;
  }

  function notFound(what) {
    heading(el("h2", {}, `No such ${what} in this archive`));
    showPart("pages");
    $("status").textContent = "";
  }

  async function listPage() {
    const mine = ++listPage.calls;
    const found = await computeList();
    if (mine !== listPage.calls) return;  // a newer search is under way
    list = found;
    const total = scope ? scope.items.length : store.count;
    $("status").textContent = list.length === total ? `${total} items` : `${list.length} of ${total} items match`;
    if (route().view === "map") return drawMap();
    showPart("grid");
    resetGrid();
    performance.mark("viewer-list");  // for bench/viewer.py: when a list (a search's) is drawn
  }
  listPage.calls = 0;

  function scopeHeading() {
    if (!scope) return heading();
    const parts = [el("h2", {dir: "auto"}, scope.title || "(untitled)"),
                   el("p", {class: "description", dir: "auto"}, plain(scope.description))];
    if (listKind === "album") {
      const inside = store.collections.filter((c) => c.albums.includes(scope.id));
      if (inside.length) {
        parts.push(el("p", {class: "crumbs"}, "In ", ...inside.map((c) =>
          el("a", {href: `#/collection/${encodeURIComponent(c.id)}`, dir: "auto"}, c.title || "(untitled)"))));
      }
    }
    if (listKind === "gallery" && scope.others.length) {
      parts.push(el("p", {class: "detail"}, `${scope.others.length} of its photos are other members' and not in this archive.`));
    }
    heading(...parts);
  }

  // -- The map ---------------------------------------------------------------------------------

  let map = null, pins = null;
  async function drawMap() {
    showPart("map");
    const box = $("map");
    try {
      if (root.dataset.leaflet !== "yes") throw new Error("Leaflet was not copied in");
      await loadScript(`${ASSETS}leaflet.js`);
      await loadScript(`${ASSETS}basemap.js`).catch(() => null);
    } catch (error) {
      box.replaceChildren(el("p", {class: "note"}, "The map needs Leaflet: install Debian's libjs-leaflet package and run the backup again."));
      return;
    }
    if (!document.querySelector("link[data-leaflet]")) {
      document.head.append(el("link", {rel: "stylesheet", href: `${ASSETS}leaflet.css`, "data-leaflet": true}));
    }
    const geo = store.loadGeo ? await store.loadGeo() : store.geo;
    const shown = new Set(list);
    if (!map) {
      map = L.map(box, {worldCopyJump: true, zoomSnap: 0.5, maxZoom: 18, preferCanvas: geo.length / 3 > 3000});
      const coast = (window.archiveBasemap || {coast: []}).coast;
      const lines = coast.map((flat) => {
        const points = [];
        for (let i = 0; i < flat.length; i += 2) points.push([flat[i + 1] / 10, flat[i] / 10]);
        return points;
      });
      L.polyline(lines, {color: "#5b7f9c", weight: 1, interactive: false, className: "coast"}).addTo(map);
      map.attributionControl.addAttribution("Coastlines: Natural Earth");
      pins = L.featureGroup().addTo(map);
    }
    pins.clearLayers();
    for (let i = 0; i + 2 < geo.length; i += 3) {
      const n = geo[i];
      if (!shown.has(n)) continue;
      const marker = L.circleMarker([geo[i + 1], geo[i + 2]], {radius: 6, color: "#a0246b", weight: 2, fillOpacity: 0.7, className: "pin"});
      marker.bindPopup(() => {
        const box = el("div", {class: "popup"}, el("a", {href: `#/item/${encodeURIComponent(store.ids[n])}`, dir: "auto"}, "…"));
        store.need(n).then((summary) => { box.firstChild.textContent = (summary && summary.title) || "(untitled)"; });
        return box;
      });
      pins.addLayer(marker);
    }
    const count = pins.getLayers().length;
    $("status").textContent = `${count} of ${list.length} items have a place`;
    map.invalidateSize();
    if (count) map.fitBounds(pins.getBounds(), {padding: [40, 40], maxZoom: 6});  // the outline is coarse: no closer at first
    else map.setView([20, 0], 1.5);
    box.dataset.pins = String(count);
  }

  // -- The large view --------------------------------------------------------------------------

  let largeAt = -1;  // the item's position in `list`, or -1
  function row(label, ...value) {
    return value.some((v) => v !== null && v !== undefined && v !== "") ? [el("dt", {}, label), el("dd", {dir: "auto"}, ...value)] : [];
  }

  async function openLarge(id) {
    let n = store.ids.indexOf(id);
    if (n < 0) return notFound("item");
    let at = list.indexOf(n);
    if (at < 0) {  // not in the list shown (a link to it): every item is the list, drawn again on closing
      list = store.ids.map((_, i) => i);
      at = n;
      shownRoute = "";
    }
    largeAt = at;
    const record = await store.item(n);
    if (largeAt !== at) return;  // another opened meanwhile
    const large = $("large");
    large.hidden = false;
    document.body.classList.add("large-open");
    $("large-title").textContent = record.title || "(untitled)";
    const media = $("large-media");
    media.replaceChildren();
    if (record.path && (record.media === "video")) {
      media.append(el("video", {src: mediaUrl(record.path), controls: true, preload: "metadata"}));
    } else if (record.path) {
      media.append(el("img", {src: mediaUrl(record.path), alt: record.title || ""}));
    } else {
      media.append(el("p", {class: "missing"}, "No file of this item in the archive."));
    }
    const licence = store.licenses[record.license] || {};
    const licenceUrl = webUrl(licence.url);
    const place = record.place;
    const dl = el("dl", {},
      ...row("Taken", when(record.taken)),
      ...row("Uploaded", when(record.uploaded)),
      ...row("Licence", licenceUrl ? el("a", {href: licenceUrl, rel: "noreferrer license", target: "_blank", class: "licence"},
                                                licence.name || licence.url)
                                   : (licence.name ? el("span", {class: "licence"}, licence.name) : "")),
      ...row("Tags", ...(record.tags || []).map((tag) => el("a", {href: "#/", class: "tag", "data-tag": tag}, tag))),
      ...row("Place", place ? `${place.names.length ? place.names.join(", ") + " · " : ""}${Number(place.latitude).toFixed(4)}, ${Number(place.longitude).toFixed(4)}` : ""),
      ...row("Camera", record.camera),
      ...row("Albums", ...(record.albums || []).map((a) => store.albums.find((x) => x.id === a)).filter(Boolean)
        .map((a) => el("a", {href: `#/album/${encodeURIComponent(a.id)}`, class: "album-link"}, a.title || "(untitled)"))),
      ...row("Files", record.path ? el("a", {href: mediaUrl(record.path)}, "media file") : "",
             record.sidecar ? " · " : "", record.sidecar ? el("a", {href: mediaUrl(record.sidecar)}, "sidecar JSON") : ""),
      ...row("On Flickr", webUrl(record.url) ? el("a", {href: webUrl(record.url), rel: "noreferrer", target: "_blank", class: "flickr-link"}, "the photo's page") : ""));
    const body = [];
    if (record.deleted) body.push(el("p", {class: "deleted-note"}, "Deleted on Flickr: this archive keeps the only copy."));
    body.push(el("p", {class: "description", dir: "auto"}, plain(record.description)), dl);
    const comments = record.comments || [];
    body.push(el("h3", {}, comments.length ? `Comments (${comments.length})` : "No comments kept"));
    body.push(el("ol", {class: "comments"}, ...comments.map((c) => el("li", {},
      el("span", {class: "author", dir: "auto"}, c.author || ""), " ", el("time", {}, when(c.date)),
      el("p", {dir: "auto"}, plain(c.text))))));
    $("large-body").replaceChildren(...body);
    // The neighbours' pictures, read ahead so that an arrow shows the next at once.
    for (const next of [list[largeAt + 1], list[largeAt - 1]]) {
      if (next === undefined || store.flags[next] & 1) continue;
      store.item(next).then((neighbour) => { if (neighbour.path && neighbour.media !== "video") new Image().src = mediaUrl(neighbour.path); });
    }
    $("prev").disabled = largeAt <= 0;
    $("next").disabled = largeAt >= list.length - 1;
    $("close").focus({preventScroll: true});
  }

  function closeLarge() {
    $("large").hidden = true;
    document.body.classList.remove("large-open");
    const video = $("large-media").querySelector("video");
    if (video) video.pause();
    $("large-media").replaceChildren();
    largeAt = -1;
  }

  function step(delta) {
    const at = largeAt + delta;
    if (largeAt < 0 || at < 0 || at >= list.length) return;
    location.replace(`#/item/${encodeURIComponent(store.ids[list[at]])}`);
  }

  // The page the large view closes to: where it was opened from.
  let lastListHash = "#/";
  function close() {
    location.hash = lastListHash;
  }

  $("prev").onclick = () => step(-1);
  $("next").onclick = () => step(1);
  $("close").onclick = close;
  $("large-body").addEventListener("click", (event) => {
    const tag = event.target.closest("a.tag");
    if (!tag) return;
    event.preventDefault();
    $("q").value = tag.dataset.tag;
    location.hash = "#/";
    listPage();
  });
  addEventListener("keydown", (event) => {
    if ($("large").hidden || event.target.matches("input, select, textarea")) return;
    if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    else if (event.key === "Escape") { event.preventDefault(); close(); }
  });

  // -- Routing: #/, #/albums, #/album/ID, #/collection/ID, #/gallery/ID, #/map, #/item/ID -------

  function route() {
    const [, view = "", id = ""] = location.hash.split("/");
    return {view, id: decodeURIComponent(id)};
  }

  let shownRoute = "";
  let keepFilters = false;
  async function navigate() {
    const {view, id} = route();
    if (view === "item") return openLarge(id);
    closeLarge();
    const here = `${view}/${id}`;
    lastListHash = location.hash || "#/";
    for (const link of document.querySelectorAll("nav a")) {
      link.toggleAttribute("aria-current", link.getAttribute("href") === `#/${view === "album" || view === "collection" || view === "gallery" ? "albums" : view}`);
    }
    if (here === shownRoute && (view === "" || view === "album" || view === "gallery")) return;  // back from the large view
    // Another album (or all items) shows whole: the search and filters of the last one are cleared,
    // unless a filter's change brought us here.
    if (!keepFilters && (view === "album" || view === "gallery" || shownRoute.startsWith("album/") || shownRoute.startsWith("gallery/"))) {
      $("filters").reset();
    }
    keepFilters = false;
    shownRoute = here;
    if (view === "albums") return albumsPage();
    if (view === "collection") return collectionPage(id);
    listKind = view === "album" || view === "gallery" ? view : "all";
    scope = listKind === "all" ? null : (listKind === "album" ? store.albums : store.galleries).find((x) => x.id === id);
    if (listKind !== "all" && !scope) return notFound(listKind);
    scopeHeading();
    await listPage();
    scrollTo(0, 0);
  }

  // -- Start -----------------------------------------------------------------------------------

  async function start() {
    try {
      store = KIND === "lifeboat" ? await lifeboatSource() : await archiveSource();
    } catch (error) {
      $("status").textContent = `The archive's data could not be read (${error.message}).`;
      return;
    }
    $("title").textContent = store.title;
    document.title = store.title;
    $("album").append(...store.albums.map((a) => el("option", {value: a.id}, a.title || "(untitled)")));
    const used = new Set(store.license.map(String));
    $("license").append(...Object.entries(store.licenses).filter(([id]) => used.has(id))
      .map(([id, l]) => el("option", {value: id}, l.name || `licence ${id}`)));
    let typing = null;
    $("filters").addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => {
        if (route().view === "item" || route().view === "albums" || route().view === "collection") {
          keepFilters = true;
          location.hash = "#/";
        }
        else listPage();
      }, 120);
    });
    $("filters").addEventListener("submit", (event) => event.preventDefault());
    addEventListener("hashchange", navigate);
    if (route().view === "item") {  // opened at an item: the list behind it is every item
      list = store.ids.map((_, n) => n);
      lastListHash = "#/";
    }
    await navigate();
    root.dataset.ready = "true";
    performance.mark("viewer-ready");
  }

  start();
})();
