# SPDX-License-Identifier: MIT
"""JSON endpoints (and images) the pages load with fetch(); errors answer {"error": message}."""

from __future__ import annotations

import re

import flickr
from flask import Blueprint, abort, jsonify, request, send_file, url_for
from werkzeug.exceptions import HTTPException

from . import failures
from .photos import Photo, display_tags, tag_index
from .places import Place, place_label
from .state import viewer
from .vacations import NoSuchVacation, VacationError, itinerary

blueprint = Blueprint("api", __name__)

# Sizes whose URL needs only id, secret and server ("b": 1024 px, "s": 75 px square).
IMAGE_SIZES = {"s", "q", "t", "m", "n", "w", "z", "c", "b"}
_PHOTO_ID = re.compile(r"\d{1,20}")
_TOKEN = re.compile(r"[0-9A-Za-z]{1,40}")


def answer(failure: failures.Failure):
    return jsonify(failure.json()), failure.status


@blueprint.errorhandler(flickr.FlickrError)
def flickr_failed(error: flickr.FlickrError):
    return answer(failures.of_flickr(error))


@blueprint.errorhandler(failures.Missing)
def missing(error: failures.Missing):
    return answer(error.failure)


@blueprint.errorhandler(VacationError)
def vacation_refused(error: VacationError):
    if isinstance(error, NoSuchVacation):
        return answer(failures.Missing("No such vacation", str(error)).failure)
    return answer(failures.of_status(str(error), 400))


@blueprint.errorhandler(HTTPException)
def http_error(error: HTTPException):
    return answer(failures.of_status(error.description or error.name, error.code or 500))


# -- JSON of the lists ---------------------------------------------------------------------------

def place_json(place: Place) -> dict:
    return {"id": place.id, "title": place.title, "subtitle": place.subtitle,
            "latitude": place.latitude, "longitude": place.longitude,
            "url": url_for("pages.place", place_id=place.id)}


def photo_json(photo: Photo) -> dict:
    title, subtitle = photo.heading
    return {"id": photo.id, "title": title, "subtitle": subtitle,
            "latitude": photo.latitude, "longitude": photo.longitude,
            "url": url_for("pages.photo", photo_id=photo.id)} | thumbnail_json(photo)


def thumbnail_json(photo: Photo | None) -> dict:
    """A row's thumbnail: Flickr's 75 px square, and its 150 px one for screens of 2 pixels a point;
    None for a row that could have one but has no photo (the page shows an empty box)."""
    if photo is None:
        return {"thumbnail": None, "thumbnail_2x": None}
    return {"thumbnail": image_url(photo, "s"), "thumbnail_2x": image_url(photo, "q")}


def image_url(photo: Photo, size: str) -> str:
    return url_for("api.image", size=size, server=photo.server, photo_id=photo.id, secret=photo.secret)


def photo_list(heading: str, subheading: str, photos: list[Photo], empty: str = "No photos."):
    return jsonify(heading=heading, subheading=subheading, empty=empty, photos=[photo_json(p) for p in photos])


def checked_photo_id(photo_id: str) -> str:
    if not _PHOTO_ID.fullmatch(photo_id):
        abort(404, "No such photo.")
    return photo_id


# -- Top places, a place, a photo ----------------------------------------------------------------

@blueprint.get("/places")
def places():
    return jsonify(places=[place_json(p) for p in viewer().service.top_places()])


@blueprint.get("/places/<place_id>/photos")
def place_photos(place_id: str):
    service = viewer().service
    place = service.place(place_id)
    return photo_list(place.title, place.subtitle, service.photos_in_place(place_id))


@blueprint.get("/photos/<photo_id>")
def photo(photo_id: str):
    found = viewer().service.photo(checked_photo_id(photo_id))
    name = viewer().vacations.current_name()
    vacation = viewer().vacations.find(name)
    return jsonify(photo_json(found) | {
        "place_name": str(place_label(found.place_name)), "tags": display_tags(found.tags),
        "flickr_url": found.page_url,
        "image": image_url(found, "b"), "vacation": name,
        "visited": vacation is not None and vacation.contains(found.id)})


@blueprint.get("/images/<size>/<server>/<photo_id>_<secret>.jpg")
def image(size: str, server: str, photo_id: str, secret: str):
    """A photo's image through the library's bounded cache: downloaded from Flickr only when missing."""
    if size not in IMAGE_SIZES or not (_TOKEN.fullmatch(server) and _TOKEN.fullmatch(secret)):
        abort(404, "No such image.")
    fetchable = {"id": checked_photo_id(photo_id), "secret": secret, "server": server}
    for _ in range(2):
        try:
            path = viewer().service.image(fetchable, size)
        except flickr.HTTPError as error:
            if error.http_status == 404:  # the image host has no such image: a wrong id, server or secret
                return answer(failures.Failure(failures.describe(error), 404, transient=False))
            raise
        try:
            # Opened at once: a later download may evict the file, but an open file stays readable.
            # No Last-Modified: the cache touches a file's time on every use (its eviction order).
            return send_file(path.open("rb"), mimetype="image/jpeg", max_age=3600)
        except FileNotFoundError:
            continue  # evicted between the fetch and the open: fetch it again
    abort(503, "The image was evicted from the cache while being read; try again.")


# -- Recents -------------------------------------------------------------------------------------

@blueprint.get("/recents")
def recents():
    return photo_list("Recents", "The photos you viewed last, newest first", viewer().recents.list(),
                      empty="No photo viewed yet.")


@blueprint.post("/recents")
def add_recent():
    photo_id = checked_photo_id(str(_json_field("photo_id")))
    viewer().recents.add(viewer().service.photo(photo_id))
    return jsonify(ok=True)


# -- Vacations -----------------------------------------------------------------------------------

@blueprint.get("/vacations")
def vacations():
    vacations = viewer().vacations
    current = vacations.current_name()
    found = (vacations.find(name) for name in vacations.names())  # None when deleted meanwhile
    # A vacation's thumbnail is its first photo's: one more row read from its file, no Flickr call.
    return jsonify(current=current, vacations=[
        {"name": v.name, "current": v.name == current, "photos": v.count(),
         "url": url_for("pages.vacation", name=v.name), "delete": url_for("api.delete_vacation", name=v.name)}
        | thumbnail_json(next(iter(v.photos(limit=1)), None))
        for v in found if v])


@blueprint.post("/vacations")
def create_vacation():
    vacations = viewer().vacations
    vacation = vacations.create(str(_json_field("name")))
    vacations.choose(vacation.name)
    return jsonify(name=vacation.name), 201


@blueprint.put("/vacations/current")
def choose_vacation():
    return jsonify(name=viewer().vacations.choose(str(_json_field("name"))).name)


@blueprint.put("/vacations/current/photos/<photo_id>")
def visit(photo_id: str):
    vacation = viewer().vacations.current()
    vacation.visit(viewer().service.photo(checked_photo_id(photo_id)))
    return jsonify(vacation=vacation.name, visited=True)


@blueprint.delete("/vacations/current/photos/<photo_id>")
def unvisit(photo_id: str):
    vacation = viewer().vacations.current()
    vacation.unvisit(checked_photo_id(photo_id))
    return jsonify(vacation=vacation.name, visited=False)


@blueprint.get("/vacations/<name>")
def vacation(name: str):
    vacation = viewer().vacations.get(name)
    photos = vacation.photos()
    places = []
    for place_name, members in itinerary(photos):
        title, subtitle = place_label(place_name)
        latitude, longitude = middle(members)
        places.append({"title": title, "subtitle": subtitle, "photos": [photo_json(p) for p in members],
                       "url": url_for("pages.vacation_place", name=vacation.name, place=place_name),
                       "latitude": latitude, "longitude": longitude})
    tags = [{"title": tag, "subtitle": _count(len(members)), "photos": [photo_json(p) for p in members],
             "url": url_for("pages.vacation_tag", name=vacation.name, tag=tag)}
            for tag, members in tag_index(photos)]
    return jsonify(name=vacation.name, current=vacation.name == viewer().vacations.current_name(),
                   itinerary=places, tags=tags)


@blueprint.delete("/vacations/<name>")
def delete_vacation(name: str):
    vacations = viewer().vacations
    vacations.delete(name)
    return jsonify(deleted=name, current=vacations.current_name())


@blueprint.get("/vacations/<name>/places/<path:place>")
def vacation_place(name: str, place: str):
    photos = dict(itinerary(viewer().vacations.get(name).photos())).get(place, [])
    title, subtitle = place_label(place)
    return photo_list(title, subtitle, photos)


@blueprint.get("/vacations/<name>/tags/<tag>")
def vacation_tag(name: str, tag: str):
    members = dict(tag_index(viewer().vacations.get(name).photos())).get(tag, [])
    return photo_list(tag, f"{_count(len(members))} in {name}", members)


def middle(photos: list[Photo]) -> tuple[float | None, float | None]:
    """Where a place's marker goes: the middle of its photos that have a location."""
    points = [(p.latitude, p.longitude) for p in photos if p.latitude is not None and p.longitude is not None]
    if not points:
        return None, None
    return sum(lat for lat, _ in points) / len(points), sum(lon for _, lon in points) / len(points)


def _count(n: int) -> str:
    return f"{n} photo" if n == 1 else f"{n} photos"


def _json_field(name: str) -> object:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or name not in body:
        abort(400, f"The request needs a JSON body with {name!r}.")
    return body[name]
