// SPDX-License-Identifier: MIT
// Runs in the frame app.js makes for one Lifeboat photo file (each declares `const photo`):
// hands the photo to the page.
/* global photo */
parent.lifeboatPhoto(decodeURIComponent(document.body.dataset.id), typeof photo === "undefined" ? null : photo);
