# SPDX-License-Identifier: MIT
"""HTML pages: shells rendered at once, which load their data from the JSON endpoints.

Each page gets the URLs its script uses as ``data-*`` attributes of its body (``urls``), and its
way back (``back``: a label and a URL), which a permanent failure offers instead of Retry.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for

blueprint = Blueprint("pages", __name__)


@blueprint.get("/")
def home():
    return redirect(url_for(".top_places"))


def top_places_link() -> tuple[str, str]:
    return "Top Places", url_for(".top_places")


@blueprint.get("/places")
def top_places():
    # Top Places is the first page: when Flickr refuses it for good, Recents still work.
    return render_template("places.html", tab="places", back=("Recents", url_for(".recents")),
                           urls={"source": url_for("api.places")})


@blueprint.get("/places/<place_id>")
def place(place_id: str):
    return _photo_list("places", "Photos", url_for("api.place_photos", place_id=place_id), top_places_link())


@blueprint.get("/photos/<photo_id>")
def photo(photo_id: str):
    return render_template("photo.html", tab="", back=top_places_link(), urls={
        "source": url_for("api.photo", photo_id=photo_id), "recents": url_for("api.add_recent"),
        "visit": url_for("api.visit", photo_id=photo_id)})


@blueprint.get("/recents")
def recents():
    return _photo_list("recents", "Recents", url_for("api.recents"), top_places_link())


@blueprint.get("/vacations")
def vacations():
    return render_template("vacations.html", tab="vacations", back=top_places_link(), urls={
        "source": url_for("api.vacations"), "choose": url_for("api.choose_vacation")})


@blueprint.get("/vacations/<name>")
def vacation(name: str):
    return _vacation(name, "itinerary")


@blueprint.get("/vacations/<name>/tags")
def vacation_tags(name: str):
    return _vacation(name, "tags")


def _vacation(name: str, view: str) -> str:
    """A vacation with its itinerary or its tags: each view its own address, so that Back from a
    tag's photos, a reload or a bookmark returns to the view that was on screen."""
    return render_template("vacation.html", tab="vacations", name=name, view=view,
                           views={"itinerary": url_for(".vacation", name=name),
                                  "tags": url_for(".vacation_tags", name=name)},
                           back=("Vacations", url_for(".vacations")),
                           urls={"source": url_for("api.vacation", name=name),
                                 "choose": url_for("api.choose_vacation"),
                                 "delete": url_for("api.delete_vacation", name=name),
                                 "vacations": url_for(".vacations")})


@blueprint.get("/vacations/<name>/places/<path:place>")
def vacation_place(name: str, place: str):
    return _photo_list("vacations", place, url_for("api.vacation_place", name=name, place=place),
                       (name, url_for(".vacation", name=name)))


@blueprint.get("/vacations/<name>/tags/<tag>")
def vacation_tag(name: str, tag: str):
    return _photo_list("vacations", tag, url_for("api.vacation_tag", name=name, tag=tag),
                       (f"{name}'s tags", url_for(".vacation_tags", name=name)))


def _photo_list(tab: str, heading: str, source: str, back: tuple[str, str]) -> str:
    return render_template("photos.html", tab=tab, heading=heading, back=back, urls={"source": source})
