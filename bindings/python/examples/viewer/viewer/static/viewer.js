// SPDX-License-Identifier: MIT
// The viewer's pages. Each page is a shell that loads its data from a JSON endpoint with
// fetch(), shows progress while it waits, and shows the error with a Retry button when
// Flickr or the network fails: no request ever blocks the page.
"use strict";

const page = document.body.dataset;  // data-source, data-tile-url... (see pages.py)
const $ = (selector, scope = document) => scope.querySelector(selector);

// -- Elements (built with the DOM, never from HTML strings: titles hold "<", "&"...) ---------

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

function progress(label) {
  return el("div", {class: "progress", role: "progressbar", "aria-label": label},
            el("span", {class: "spinner"}), el("span", {}, label));
}

// A failure's message, then Retry when trying again may help (error.transient, decided by the
// server: failures.py), else a way back: a thing that is not there does not come by retrying.
function failure(error, retry) {
  if (error.heading) showHeading(error.heading);
  return el("div", {class: "error", role: "alert"},
            el("p", {}, error.message),
            error.transient === false ? wayBack()
                                      : el("button", {type: "button", class: "retry", onclick: retry}, "Retry"));
}

// Back to the previous page when it was one of the viewer's, and the page's parent (pages.py).
function wayBack() {
  const cameFromViewer = history.length > 1 && document.referrer.startsWith(location.origin + "/");
  return el("p", {class: "way-back"},
            cameFromViewer ? el("button", {type: "button", onclick: () => history.back()}, "Go back") : null,
            page.backUrl ? el("a", {href: page.backUrl}, `Back to ${page.backLabel}`) : null);
}

function showHeading(text) {
  $("main h1").textContent = text;
  document.title = `${text} · Flickr Viewer`;
}

// -- Requests ------------------------------------------------------------------------------

// A failed request: the viewer's message, whether it is worth another try, and maybe a heading.
class Failure extends Error {
  constructor(message, {transient = true, heading = ""} = {}) {
    super(message);
    Object.assign(this, {transient, heading});
  }
}

async function request(url, options = {}) {
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    throw new Failure("The viewer could not be reached: is it still running?");
  }
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    // Every answer of the viewer's says whether to retry; anything else (a proxy's page) may pass.
    throw new Failure(body?.error || `The viewer answered HTTP ${response.status}.`,
                      {transient: body?.transient ?? true, heading: body?.heading});
  }
  return response;
}

async function requestJSON(url, method = "GET", body = undefined) {
  const options = {method, headers: {Accept: "application/json"}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  return (await request(url, options)).json();
}

// Shows progress in `region` until the data is there, then render(data); on failure the
// message and a Retry button that starts over (or a way back), and failed(error).
async function load(region, url, render, label = "Loading…", failed = () => {}) {
  region.replaceChildren(progress(label));
  region.setAttribute("aria-busy", "true");
  try {
    const data = await requestJSON(url);
    region.replaceChildren();
    render(data);
  } catch (error) {
    region.replaceChildren(failure(error, () => load(region, url, render, label, failed)));
    failed(error);
  } finally {
    region.removeAttribute("aria-busy");
  }
}

// -- Lists and maps ------------------------------------------------------------------------

// An item with a thumbnail key (a photo's, or null for a row that has no photo) gets a box for it.
function itemLink(item) {
  return el("a", {href: item.url},
            "thumbnail" in item ? thumbnail(item) : null,
            el("span", {class: "text"},
               el("span", {class: "title"}, item.title),
               item.subtitle ? el("span", {class: "subtitle"}, item.subtitle) : null));
}

// A box of fixed size (viewer.css), so that the list does not move as images arrive. The image
// loads when scrolled near ("loading" is set before "src" for that): a list of fifty asks for the
// few on screen. When it fails the image goes and the empty box stays, a neutral placeholder
// rather than a broken-image icon. The alt text is empty because the title beside it names the link.
function thumbnail(item) {
  const box = el("span", {class: "thumb"});
  if (item.thumbnail) {
    box.append(el("img", {loading: "lazy", alt: "", width: 75, height: 75,
                          onerror: (event) => event.target.remove(),
                          srcset: item.thumbnail_2x && `${item.thumbnail_2x} 2x`, src: item.thumbnail}));
  }
  return box;
}

// Items are {title, subtitle, url, latitude, longitude[, thumbnail, thumbnail_2x][, photos]}; an
// item's photos are listed under it (the places of an itinerary, the tags of a vacation).
function itemList(items, emptyText) {
  if (!items.length) return el("p", {class: "empty"}, emptyText);
  return el("ul", {class: "list"}, ...items.map((item) => el("li", {},
    itemLink(item),
    item.photos ? el("ul", {class: "sublist"}, ...item.photos.map((photo) => el("li", {}, itemLink(photo))))
                : null)));
}

// Renders the items into `region` as a list, or as a map when the page's Map button is pressed.
function listOrMap(region, items, kind, emptyText) {
  const list = itemList(items, emptyText);
  const box = el("div", {class: "map", hidden: true});
  region.append(list, box);
  const buttons = [...document.querySelectorAll(".views button")];
  for (const views of document.querySelectorAll(".views")) views.hidden = false;  // hidden while nothing is shown
  let map = null;
  const show = (view) => {
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.view === view));
    list.hidden = view === "map";
    box.hidden = view !== "map";
    if (view === "map") {
      map = map || drawMap(box, items, kind);
      map?.invalidateSize();
    }
    // The hash keeps the choice for the back button and for links.
    history.replaceState(null, "", view === "map" ? "#map" : location.pathname + location.search);
  };
  for (const button of buttons) button.onclick = () => show(button.dataset.view);
  show(location.hash === "#map" ? "map" : "list");
}

function drawMap(box, items, kind) {
  if (!window.L) {
    box.append(el("p", {class: "error"}, "Maps need Leaflet: install Debian's libjs-leaflet package."));
    return null;
  }
  const located = items.filter((item) => item.latitude !== null && item.longitude !== null);
  if (!located.length) {
    box.append(el("p", {class: "empty"}, "None of these has a location."));
    return null;
  }
  // maxZoom: marker clustering needs one, and without tiles nothing else sets it.
  const map = L.map(box, {worldCopyJump: true, zoomSnap: 0.5, maxZoom: 18});
  if (page.tileUrl) L.tileLayer(page.tileUrl, {attribution: page.tileAttribution, maxZoom: 19}).addTo(map);
  basemap(map);
  const pins = pinLayer(map, kind);
  const bounds = L.latLngBounds([]);
  for (const item of located) {
    const at = [item.latitude, item.longitude];
    pins.addLayer(L.marker(at, {title: item.title, alt: item.title})
      .bindPopup(() => callout(item, kind), {minWidth: 180}));
    bounds.extend(at);
  }
  // The smallest region that shows every marker, with some room around them.
  map.fitBounds(bounds, {padding: [48, 48], maxZoom: 12});
  pins.addTo(map);
  L.control.scale({position: "bottomleft"}).addTo(map);
  graticule(map);
  return map;
}

// Pins that overlap on screen are grouped into a cluster showing how many it holds: a click zooms
// in to them, or spreads them out when they are at the same place (Leaflet.markercluster, Debian's
// libjs-leaflet.markercluster). Without it, plain markers and a note saying so.
function pinLayer(map, kind) {
  if (!L.markerClusterGroup) {
    mapNote(map, "Overlapping pins are not grouped: install Debian's libjs-leaflet.markercluster package.");
    return L.layerGroup();
  }
  return L.markerClusterGroup({
    maxClusterRadius: 40, showCoverageOnHover: false, spiderfyOnMaxZoom: true,
    iconCreateFunction: (cluster) => {
      const n = cluster.getChildCount();
      const label = `${n} ${kind}s here: click to see them`;
      return L.divIcon({
        className: `marker-cluster marker-cluster-${n < 10 ? "small" : n < 100 ? "medium" : "large"}`,
        html: `<div title="${label}" aria-label="${label}"><span>${n}</span></div>`,
        iconSize: L.point(40, 40),
      });
    },
  });
}

function mapNote(map, text) {
  const note = L.control({position: "bottomleft"});
  note.onAdd = () => el("p", {class: "map-note", role: "note"}, text);
  note.addTo(map);
}

function callout(item, kind) {
  const words = item.subtitle && item.subtitle.length > 90 ? item.subtitle.slice(0, 88) + "…" : item.subtitle;
  return el("div", {class: "callout"},
    // The thumbnail comes when loaded: the callout does not wait for it.
    kind === "photo" ? el("img", {src: item.thumbnail, alt: "", width: 75, height: 75}) : null,
    el("div", {},
      el("strong", {}, item.title),
      words ? el("p", {}, words) : null,
      el("a", {href: item.url, class: "disclosure"}, kind === "photo" ? "View photo ›" : "Show photos ›")));
}

// -- The offline basemap: land, coastlines and borders (Natural Earth, static/basemap/) ---------

// The decoded basemap, fetched once for all the maps of a page.
let basemapFeatures = null;

// Draws the basemap into the map's "basemap" pane, under the tiles when there are tiles (so that
// it shows wherever they do not come), three times side by side so that no half of the view is
// empty sea when it crosses the antimeridian.
function basemap(map) {
  map.createPane("basemap").style.zIndex = 150;  // tiles are at 200, vectors at 400
  basemapFeatures ??= requestJSON(page.basemapUrl).then(fromTopology);
  basemapFeatures.then(({land, borders, coastline}) => {
    const layers = [[land, {className: "basemap-land", stroke: false, fillColor: "#f4f1e8", fillOpacity: 1}],
                    [borders, {className: "basemap-border", color: "#9e8fa6", weight: 0.8, opacity: 0.9}],
                    [coastline, {className: "basemap-coast", color: "#6d8ea8", weight: 1}]];
    for (const [data, style] of layers) {
      for (const shift of [0, -360, 360]) {
        L.geoJSON(data, {
          pane: "basemap", interactive: false, style,
          attribution: shift || data !== land ? null : "Land and borders: Natural Earth",
          coordsToLatLng: ([lon, lat]) => L.latLng(lat, lon + shift),
        }).addTo(map);
      }
    }
    map.getContainer().dataset.basemap = "drawn";
  }).catch(() => mapNote(map, "The basemap could not be loaded: the map shows a graticule only."));
}

// GeoJSON of the basemap's TopoJSON objects: each arc (a stretch of coast or border) is stored
// once, delta-encoded on a grid; a ring or a line lists its arcs (~i: arc i reversed).
function fromTopology(topology) {
  const {scale: [kx, ky], translate: [dx, dy]} = topology.transform;
  const arcs = topology.arcs.map((arc) => {
    let x = 0, y = 0;
    return arc.map(([ax, ay]) => [(x += ax) * kx + dx, (y += ay) * ky + dy]);
  });
  const arc = (i) => i >= 0 ? arcs[i] : arcs[~i].slice().reverse();
  const line = (ids) => ids.flatMap((id, n) => n ? arc(id).slice(1) : arc(id));
  const geometry = ({type, arcs: ids}) => ({
    type, coordinates: type === "MultiPolygon" ? ids.map((polygon) => polygon.map(line)) : ids.map(line),
  });
  const feature = (object) => ({type: "Feature", properties: object.properties || {}, geometry: geometry(object)});
  const {countries, borders, coastline} = topology.objects;
  return {land: {type: "FeatureCollection", features: countries.geometries.map(feature)},
          borders: feature(borders), coastline: feature(coastline)};
}

// Parallels and meridians at a spacing that suits the zoom, over the basemap: latitudes labelled
// along the east edge, longitudes along the north one (the bottom corners hold the scale and the
// attribution). A label that would leave the map or hide under the zoom buttons moves or goes.
function graticule(map) {
  const layer = L.layerGroup().addTo(map);
  const steps = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001];
  const line = {color: "#5f7890", weight: 1, opacity: 0.3, interactive: false};
  const label = (at, text, edge) => L.marker(at, {
    interactive: false, keyboard: false,
    icon: L.divIcon({className: `graticule-label ${edge}`, html: `<span>${text}</span>`, iconSize: null}),
  });
  const degrees = (value, step, positive, negative) => {
    const text = Math.abs(value).toFixed(step >= 1 ? 0 : Math.ceil(-Math.log10(step)));
    return `${text}°${value === 0 || Math.abs(value) === 180 ? "" : value > 0 ? positive : negative}`;
  };
  const draw = () => {
    layer.clearLayers();
    const b = map.getBounds(), {x: width, y: height} = map.getSize();
    const south = Math.max(-85, b.getSouth()), north = Math.min(85, b.getNorth());
    const west = b.getWest(), east = b.getEast();
    const span = Math.max(east - west, north - south);
    const step = steps.find((s) => span / s >= 4) ?? steps[steps.length - 1];
    const top = map.containerPointToLatLng([0, 0]).lat;
    for (let i = Math.ceil(south / step); i * step <= north; i++) {
      const lat = i * step;
      layer.addLayer(L.polyline([[lat, west], [lat, east]], line));
      const y = map.latLngToContainerPoint([lat, east]).y;
      if (y > 40 && y < height - 20) {  // clear of the longitudes and of the attribution
        layer.addLayer(label([lat, east], degrees(lat, step, "N", "S"), "east"));
      }
    }
    for (let i = Math.ceil(west / step); i * step <= east; i++) {
      const lon = i * step;
      layer.addLayer(L.polyline([[south, lon], [north, lon]], line));
      const x = map.latLngToContainerPoint([top, lon]).x;
      if (x < 56) continue;  // under the zoom buttons
      // Right of its meridian, or left of it when there is no room before the east edge.
      layer.addLayer(label([top, lon], degrees(((lon + 540) % 360) - 180, step, "E", "W"),
                           x > width - 64 ? "north west" : "north"));
    }
  };
  map.on("moveend", draw);
  draw();
}

// -- Pages ---------------------------------------------------------------------------------

function placesPage() {
  load($("#content"), page.source, (data) => listOrMap($("#content"), data.places, "place", "No places today."),
       "Loading today's top places…");
}

function photosPage() {
  load($("#content"), page.source, (data) => {
    $("#heading").textContent = data.heading;
    $("#subheading").textContent = data.subheading;
    document.title = `${data.heading} · Flickr Viewer`;
    listOrMap($("#content"), data.photos, "photo", data.empty);
  }, "Loading photos…");
}

function photoPage() {
  const status = $("#stage-status"), image = $("#photo-image");
  const view = new PanZoom($("#stage"), image);
  let objectUrl = null;

  async function loadImage(url) {
    image.hidden = true;
    $("#zoom").hidden = true;
    status.replaceChildren(progress("Loading the photo…"));
    try {
      const blob = await (await request(url)).blob();
      if (objectUrl) URL.revokeObjectURL(objectUrl);  // keep at most one image in memory
      objectUrl = URL.createObjectURL(blob);
      image.src = objectUrl;
      await image.decode();
      status.replaceChildren();
      image.hidden = false;
      $("#zoom").hidden = false;
      view.reset();
    } catch (error) {
      status.replaceChildren(failure(error, () => loadImage(url)));
    }
  }

  function showVisited(visited, vacation) {
    $("#visit").textContent = visited ? "Unvisit" : "Visit";
    $("#visit").setAttribute("aria-pressed", String(visited));
    $("#visit-vacation").textContent = `${visited ? "in" : "add to"} ${vacation}`;
  }

  load(status, page.source, (photo) => {
    $("#photo-title").textContent = photo.title;
    $("#photo-description").textContent = photo.subtitle;
    $("#photo-place").textContent = [photo.place_name, photo.tags.join(" · ")].filter(Boolean).join(" — ");
    $("#flickr-link").href = photo.flickr_url;
    image.alt = photo.title;
    document.title = `${photo.title} · Flickr Viewer`;
    $("#photo-actions").hidden = false;
    let visited = photo.visited;
    showVisited(visited, photo.vacation);
    $("#visit").onclick = async () => {
      $("#visit").disabled = true;
      try {
        const answer = await requestJSON(page.visit, visited ? "DELETE" : "PUT");
        visited = answer.visited;
        showVisited(visited, answer.vacation);
      } catch (error) {
        $("#visit-vacation").textContent = error.message;
      } finally {
        $("#visit").disabled = false;
      }
    };
    // Recents are a convenience: a failure to record one must not disturb the photo.
    requestJSON(page.recents, "POST", {photo_id: photo.id}).catch(() => {});
    loadImage(photo.image);
  }, "Loading the photo's details…", (error) => {
    // No photo to come: no empty dark stage under the message.
    $("#stage").classList.toggle("failed", error.transient === false);
  });
}

// -- Vacations ------------------------------------------------------------------------------

const photoCount = (n) => n === 1 ? "1 photo" : `${n} photos`;

// Asks before a vacation goes (the page's <dialog>, _delete_dialog.html): true for Delete;
// Cancel, Escape or a click outside keep it.
function confirmDelete(name, photos) {
  const dialog = $("#confirm-delete");
  $("#confirm-delete-title").textContent = `Delete “${name}”?`;
  $("#confirm-delete-text").textContent = photos
    ? `Its list of ${photoCount(photos).replace("photo", "visited photo")} goes too; the photos stay on Flickr. `
      + "This cannot be undone."
    : "It has no photo yet. This cannot be undone.";
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "delete"), {once: true});
  });
}

// Deletes after asking; the answer ({deleted, current}), or null when kept.
async function deleteVacation(name, photos, url) {
  return await confirmDelete(name, photos) ? requestJSON(url, "DELETE") : null;
}

function vacationsPage() {
  const content = $("#content"), note = $("#vacations-note");
  // Deleted from its own page, which then came here: say so once (a reload does not repeat it).
  const deleted = new URLSearchParams(location.search).get("deleted");
  if (deleted) {
    note.textContent = `“${deleted}” was deleted.`;
    history.replaceState(null, "", location.pathname);
  }
  const refresh = () => load(content, page.source, (data) => {
    if (!data.vacations.length) {
      content.append(el("p", {class: "empty"},
        `No vacation yet: “${data.current}” is created when you visit your first photo.`));
      return;
    }
    content.append(el("ul", {class: "list"}, ...data.vacations.map((vacation) => el("li", {},
      itemLink({url: vacation.url, title: vacation.name, thumbnail: vacation.thumbnail,
                thumbnail_2x: vacation.thumbnail_2x,
                subtitle: [photoCount(vacation.photos), vacation.current ? "Current vacation" : ""]
                  .filter(Boolean).join(" · ")}),
      vacation.current ? null : el("button", {type: "button", class: "choose", onclick: () => choose(vacation.name)},
                                   `Make “${vacation.name}” current`),
      el("button", {type: "button", class: "danger", "aria-label": `Delete “${vacation.name}”…`,
                    onclick: () => remove(vacation)}, "Delete…")))));
  }, "Loading vacations…");
  const remove = async (vacation) => {
    try {
      const answer = await deleteVacation(vacation.name, vacation.photos, vacation.delete);
      if (!answer) return;
      note.textContent = `“${answer.deleted}” was deleted.`;
      refresh();
    } catch (error) {
      content.prepend(el("p", {class: "error", role: "alert"}, error.message));
    }
  };
  const choose = async (name) => {
    try {
      await requestJSON(page.choose, "PUT", {name});
      refresh();
    } catch (error) {
      content.prepend(el("p", {class: "error", role: "alert"}, error.message));
    }
  };
  $("#new-vacation").onsubmit = async (event) => {
    event.preventDefault();
    const note = $("#new-vacation-status");
    try {
      const answer = await requestJSON(page.source, "POST", {name: $("#vacation-name").value});
      note.textContent = `“${answer.name}” is now the current vacation.`;
      note.classList.remove("failed");
      $("#vacation-name").value = "";
      refresh();
    } catch (error) {
      note.textContent = error.message;
      note.classList.add("failed");
    }
  };
  refresh();
}

function vacationPage() {
  // Each tab has its address (pages.py renders the one asked for): switching replaces the URL, as
  // List/Map does, so that Back from a tag's photos and a reload come back to the same tab.
  const tabs = [...document.querySelectorAll("[role=tab]")];
  for (const tab of tabs) {
    tab.onclick = () => {
      for (const other of tabs) {
        other.setAttribute("aria-selected", String(other === tab));
        document.getElementById(other.getAttribute("aria-controls")).hidden = other !== tab;
      }
      const onMap = tab.id === "tab-itinerary" && $(".views [data-view=map]").getAttribute("aria-pressed") === "true";
      history.replaceState(null, "", tab.dataset.url + (onMap ? "#map" : ""));
    };
  }
  const refresh = () => load($("#status"), page.source, (data) => {
    $("#vacation-status").textContent = data.current ? "The current vacation: Visit adds photos here." : "";
    $("#vacation-actions").hidden = false;
    $("#make-current").hidden = data.current;
    $("#delete-vacation").onclick = async () => {
      try {
        const photos = data.itinerary.reduce((sum, place) => sum + place.photos.length, 0);
        // Replaced, not pushed: Back must not return to a vacation that is gone.
        if (await deleteVacation(data.name, photos, page.delete)) {
          location.replace(`${page.vacations}?deleted=${encodeURIComponent(data.name)}`);
        }
      } catch (error) {
        $("#vacation-status").textContent = error.message;
      }
    };
    $("#make-current").onclick = async () => {
      try {
        await requestJSON(page.choose, "PUT", {name: data.name});
        refresh();
      } catch (error) {
        $("#vacation-status").textContent = error.message;
      }
    };
    $("#vacation-body").hidden = false;  // hidden until there is a vacation to browse
    $("#content").replaceChildren();
    listOrMap($("#content"), data.itinerary, "place", "No photo visited yet.");
    $("#tag-content").replaceChildren(itemList(data.tags, "No tags yet."));
  }, "Loading the vacation…");
  refresh();
}

// -- Pan and zoom of the photo -------------------------------------------------------------

class PanZoom {
  constructor(stage, image) {
    Object.assign(this, {stage, image, scale: 1, x: 0, y: 0});
    stage.addEventListener("wheel", (event) => {
      event.preventDefault();
      const box = stage.getBoundingClientRect();
      this.zoomAt(Math.exp(-event.deltaY * 0.002), event.clientX - box.left, event.clientY - box.top);
    }, {passive: false});
    stage.addEventListener("dblclick", (event) => {
      const box = stage.getBoundingClientRect();
      this.zoomAt(2, event.clientX - box.left, event.clientY - box.top);
    });
    let drag = null;
    image.addEventListener("pointerdown", (event) => {
      drag = {x: event.clientX - this.x, y: event.clientY - this.y};
      image.setPointerCapture(event.pointerId);
    });
    image.addEventListener("pointermove", (event) => {
      if (!drag) return;
      this.x = event.clientX - drag.x;
      this.y = event.clientY - drag.y;
      this.apply();
    });
    image.addEventListener("pointerup", () => { drag = null; });
    for (const button of stage.querySelectorAll("[data-zoom]")) {
      button.onclick = () => {
        const {zoom} = button.dataset;
        if (zoom === "fill" || zoom === "fit") this.zoomTo(zoom === "fill" ? this.fillScale : this.fitScale);
        else this.zoomAt(zoom === "in" ? 1.5 : 1 / 1.5, stage.clientWidth / 2, stage.clientHeight / 2);
      };
    }
    window.addEventListener("resize", () => this.apply());
  }

  get fitScale() {  // the whole photo, with bands of unused space
    return Math.min(this.stage.clientWidth / this.image.naturalWidth, this.stage.clientHeight / this.image.naturalHeight);
  }

  get fillScale() {  // as much of the photo as possible with no unused space
    return Math.max(this.stage.clientWidth / this.image.naturalWidth, this.stage.clientHeight / this.image.naturalHeight);
  }

  reset() {
    this.zoomTo(this.fillScale);
  }

  zoomTo(scale) {
    this.scale = scale;
    this.x = (this.stage.clientWidth - this.image.naturalWidth * scale) / 2;
    this.y = (this.stage.clientHeight - this.image.naturalHeight * scale) / 2;
    this.apply();
  }

  zoomAt(factor, cx, cy) {
    const scale = Math.min(Math.max(this.scale * factor, this.fitScale), Math.max(this.fillScale, 1) * 4);
    this.x = cx - (cx - this.x) * (scale / this.scale);
    this.y = cy - (cy - this.y) * (scale / this.scale);
    this.scale = scale;
    this.apply();
  }

  // Keeps the photo over the stage: no panning it away; centred along an axis it does not fill.
  apply() {
    const clamp = (position, size, room) => size <= room ? (room - size) / 2 : Math.min(0, Math.max(room - size, position));
    this.x = clamp(this.x, this.image.naturalWidth * this.scale, this.stage.clientWidth);
    this.y = clamp(this.y, this.image.naturalHeight * this.scale, this.stage.clientHeight);
    this.image.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
    this.stage.dataset.scale = this.scale.toFixed(3);
  }
}

const pages = {
  places: placesPage, photos: photosPage, photo: photoPage, vacations: vacationsPage, vacation: vacationPage,
};
pages[page.page]?.();
