// SPDX-License-Identifier: MIT
// The Lifeboat's viewer: reads the metadata files (`const NAME = {...};`, loaded by <script>
// tags, so that it works opened from disk) and shows every text with textContent: nothing from
// the metadata is ever parsed as HTML. Media paths and links are checked before use.
"use strict";
(function () {
  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }
  function media(path) {  // a path inside the Lifeboat's media folder, from viewer/
    return typeof path === "string" && /^media\/[A-Za-z0-9._\/-]+$/.test(path) &&
      path.split("/").indexOf("..") < 0 ? "../" + path : null;
  }
  function link(url, text) {  // only http(s) links: a javascript: URL never becomes one
    if (typeof url === "string" && /^https?:\/\//i.test(url)) {
      var a = element("a", text);
      a.href = url;
      a.rel = "noopener noreferrer";
      return a;
    }
    return element("span", text);
  }
  function who(nsid) {
    var person = (typeof contributorIndex === "object" && contributorIndex[nsid]) || {};
    return person.realname || person.username || nsid;
  }
  function licence(id) {
    var found = (typeof licenseIndex === "object" && licenseIndex[id]) || {};
    return link(found.url, found.label || ("licence " + id));
  }
  function problem(text) {
    var node = document.getElementById("problem");
    node.textContent = text;
    node.hidden = false;
  }
  function showIndex() {
    if (typeof lifeboat !== "object" || typeof photoIndex !== "object") {
      problem("The metadata files could not be loaded.");
      return;
    }
    document.title = lifeboat.name || "Data Lifeboat";
    document.getElementById("name").textContent = lifeboat.name || "Data Lifeboat";
    document.getElementById("about").textContent = "Made by " + ((lifeboat.creator || {}).name || "") +
      " on " + (lifeboat.dateCreated || "");
    var grid = document.getElementById("photos");
    var ids = Object.keys(photoIndex);
    var figures = ids.map(function (id) {
      var entry = photoIndex[id];
      var figure = element("figure");
      var page = "photo.html?id=" + encodeURIComponent(id);
      var thumb = media(entry.thumbnail && entry.thumbnail.path);
      var anchor = element("a");
      anchor.href = page;
      if (thumb) {
        var image = element("img");
        image.loading = "lazy";
        image.alt = entry.title || "";
        image.src = thumb;
        anchor.appendChild(image);
      }
      figure.appendChild(anchor);
      var caption = element("figcaption");
      var title = element("a", entry.title || "(untitled)", "title");
      title.href = page;
      title.title = entry.title || "";
      caption.appendChild(title);
      caption.appendChild(element("span", who(entry.uploaderId) + " · "));
      caption.appendChild(licence(entry.licenseId));
      figure.appendChild(caption);
      figure.dataset.search = ((entry.title || "") + " " + (entry.tags || []).join(" ")).toLowerCase();
      grid.appendChild(figure);
      return figure;
    });
    var count = document.getElementById("count");
    function filter() {
      var words = document.getElementById("search").value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      figures.forEach(function (figure) {
        var match = words.every(function (word) { return figure.dataset.search.indexOf(word) >= 0; });
        figure.hidden = !match;
        shown += match ? 1 : 0;
      });
      count.textContent = shown + " of " + ids.length + " photos";
    }
    document.getElementById("search").addEventListener("input", filter);
    filter();
  }
  function showPhoto() {
    var id = new URLSearchParams(location.search).get("id") || "";
    if (!/^[0-9]{1,20}$/.test(id)) {
      problem("No photo named.");
      return;
    }
    var script = document.createElement("script");
    script.src = "../metadata/photos/" + id + ".js";
    script.onerror = function () { problem("Photo " + id + " is not in this Lifeboat."); };
    script.onload = function () { render(typeof photo === "object" ? photo : null); };
    document.body.appendChild(script);
  }
  function render(p) {
    if (!p) {
      problem("The photo's metadata could not be read.");
      return;
    }
    var main = document.getElementById("photo");
    document.title = p.title || "(untitled)";
    main.appendChild(element("h1", p.title || "(untitled)"));
    var files = p.files || {};
    var source = media(typeof files.original === "object" ? files.original.path : files.original);
    if (source) {
      var shown = element(p.mediaType === "video" ? "video" : "img");
      if (p.mediaType === "video") shown.controls = true; else shown.alt = p.title || "";
      shown.src = source;
      main.appendChild(shown);
    }
    main.appendChild(element("p", p.description || "", "description"));
    var facts = element("dl");
    function fact(name, value) {
      facts.appendChild(element("dt", name));
      var dd = element("dd");
      if (value instanceof Node) dd.appendChild(value); else dd.textContent = value;
      facts.appendChild(dd);
    }
    fact("By", who(p.uploaderId));
    fact("Licence", licence(p.licenseId));
    fact("Taken", p.dateTaken ? p.dateTaken.value + " (" + p.dateTaken.granularity + ")" : "unknown");
    fact("Uploaded", p.dateUploaded || "");
    if (p.location) fact("Place", p.location.latitude + ", " + p.location.longitude);
    fact("On Flickr", p.deletedOnFlickr ? "deleted on Flickr since it was backed up"
      : link(p.url, p.url || "(no link)"));
    (p.albumIds || []).forEach(function (albumId) {
      var album = (typeof albumIndex === "object" && albumIndex[albumId]) || {};
      fact("Album", album.title || albumId);
    });
    main.appendChild(facts);
    var tags = element("ul", null, "tags");
    (p.tags || []).forEach(function (tag) { tags.appendChild(element("li", tag.rawValue)); });
    main.appendChild(tags);
    if ((p.comments || []).length) {
      main.appendChild(element("h2", "Comments"));
      var list = element("ul");
      p.comments.forEach(function (comment) {
        list.appendChild(element("li", who(comment.authorId) + " (" + comment.date + "): " + comment.text));
      });
      main.appendChild(list);
    }
  }
  if (document.body.dataset.page === "photo") showPhoto(); else showIndex();
})();
