/* SPDX-License-Identifier: MIT */
/* The value API on recorded Flickr responses (Tests/Fixtures/xml), photo URLs,
 * short URLs, and flickr_oauth_signature against published vectors. */
#include <flickr.h>
#include <stdlib.h>

#include "harness.h"

static char *read_file(const char *name, size_t *len) {
    char path[1024];
    FILE *f;
    char *data;
    long size;
    snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, name);
    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) exit(2);
    data[size] = '\0';
    fclose(f);
    *len = (size_t)size;
    return data;
}

static flickr_response *parse_fixture(const char *name) {
    size_t len;
    char *xml = read_file(name, &len);
    flickr_response *resp = NULL;
    int rc = flickr_response_parse(&resp, xml, len);
    free(xml);
    if (rc != FLICKR_OK) {
        fprintf(stderr, "%s: %s\n", name, flickr_error_last()->message);
        exit(2);
    }
    return resp;
}

static void test_photo_list(void) {
    flickr_response *resp = parse_fixture("flickr.interestingness.getList.xml");
    const flickr_value *root = flickr_response_root(resp), *photos, *list, *photo;
    size_t i, n;
    CHECK_EQ_INT(flickr_value_kind(root), FLICKR_VALUE_OBJECT);
    CHECK_EQ_STR(flickr_value_key_at(root, 0), "stat");
    CHECK_EQ_STR(flickr_value_string(flickr_value_at(root, 0)), "ok");
    photos = flickr_value_get(root, "photos");
    list = flickr_value_get(photos, "photo");
    CHECK_EQ_INT(flickr_value_kind(list), FLICKR_VALUE_ARRAY);
    n = flickr_value_count(list);
    CHECK(n > 5);
    CHECK(flickr_value_key_at(list, 0) == NULL); /* arrays have no keys */
    CHECK(flickr_value_at(list, n) == NULL);
    CHECK(flickr_value_at(list, (size_t)-1) == NULL);
    for (i = 0; i < n; i++) {
        photo = flickr_value_at(list, i);
        CHECK_EQ_INT(flickr_value_kind(photo), FLICKR_VALUE_OBJECT);
        CHECK(flickr_value_string(flickr_value_get(photo, "id")) != NULL);
    }
    photo = flickr_value_get(root, "photos.photo.1");
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photo, "id")), "53681926374");
    CHECK_EQ_STR(flickr_value_key_at(photo, 0), "id");
    CHECK_EQ_STR(flickr_value_string(flickr_value_at(photo, 0)), "53681926374");
    CHECK_EQ_INT(flickr_value_kind(flickr_value_get(photo, "id")), FLICKR_VALUE_STRING);
    CHECK_EQ_INT(flickr_value_count(flickr_value_get(photo, "id")), 0);
    CHECK(flickr_value_get(root, "photos.photo.x") == NULL);
    CHECK(flickr_value_get(root, "photos.photo.-1") == NULL);
    CHECK(flickr_value_get(root, "photos..photo") == NULL);
    CHECK(flickr_value_get(root, "photos.photo.0.id.more") == NULL);
    CHECK(flickr_value_get(root, "") == root);
    CHECK(flickr_value_get(root, NULL) == NULL);
    CHECK(flickr_value_string(list) == NULL);

    /* Sizes built from id/secret/server agree with the url_* extras Flickr sent. */
    {
        static const char *sizes[][2] = {{"t", "url_t"}, {"m", "url_s"}, {"s", "url_sq"}, {"o", "url_o"}};
        size_t s;
        for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            char *url = flickr_photo_source_url(photo, sizes[s][0]);
            CHECK_EQ_STR(url, flickr_value_string(flickr_value_get(photo, sizes[s][1])));
            flickr_free(url);
        }
    }
    {
        char *url = flickr_photo_source_url(photo, "");
        CHECK_EQ_STR(url, "https://live.staticflickr.com/65535/53681926374_b7bef21d69.jpg");
        flickr_free(url);
        url = flickr_photo_source_url(photo, "bogus");
        CHECK(url == NULL);
        CHECK_EQ_INT(flickr_error_last()->code, FLICKR_EINVAL);
        url = flickr_photo_source_url(list, "m"); /* an array is not a photo */
        CHECK(url == NULL);
        url = flickr_photo_source_url(NULL, "m");
        CHECK(url == NULL);
        url = flickr_photo_page_url(photo);
        CHECK_EQ_STR(url, "https://www.flickr.com/photos/yabberdab/53681926374/"); /* pathalias wins over the NSID */
        flickr_free(url);
    }
    flickr_response_free(resp);
}

static void test_photo_info(void) {
    flickr_response *resp = parse_fixture("flickr.photos.getInfo.xml");
    const flickr_value *photo = flickr_value_get(flickr_response_root(resp), "photo");
    char *url;
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photo, "title")), "Robot"); /* object's _text */
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photo, "title._text")), "Robot");
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photo, "owner.nsid")), "24573443@N04");
    CHECK_EQ_INT(flickr_value_kind(flickr_value_get(photo, "tags.tag")), FLICKR_VALUE_ARRAY);
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photo, "tags.tag.2")), "grngrn");
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photo, "location.locality")), "Da\xe1\xb8\xa9l H\xc4\xabt");
    CHECK_EQ_INT(flickr_value_kind(flickr_value_get(photo, "notes")), FLICKR_VALUE_OBJECT);
    CHECK_EQ_INT(flickr_value_count(flickr_value_get(photo, "notes")), 0);
    CHECK(flickr_value_string(flickr_value_get(photo, "notes")) == NULL);
    url = flickr_photo_source_url(photo, "o");
    CHECK_EQ_STR(url, "https://live.staticflickr.com/5150/5628095432_815e3b9f27_o.jpg");
    flickr_free(url);
    url = flickr_photo_source_url(photo, "k"); /* own secret: not in getInfo */
    CHECK(url == NULL);
    CHECK(strstr(flickr_error_last()->message, "url_k") != NULL);
    url = flickr_photo_page_url(photo);
    CHECK_EQ_STR(url, "https://www.flickr.com/photos/boncey_test/5628095432/");
    flickr_free(url);
    url = flickr_photo_short_url(flickr_value_string(flickr_value_get(photo, "id")));
    CHECK_EQ_STR(url, "https://flic.kr/p/9zksG9");
    flickr_free(url);
    flickr_response_free(resp);
}

static void test_parse_and_json(void) {
    static const char xml[] = "<rsp stat=\"ok\"><photoid secret=\"a\">123</photoid></rsp>";
    flickr_response *resp = NULL;
    char *json;
    size_t len = 0;
    CHECK_EQ_INT(flickr_response_parse(&resp, xml, sizeof xml - 1), FLICKR_OK);
    json = flickr_response_json(resp);
    CHECK_EQ_STR(json, "{\"stat\":\"ok\",\"photoid\":{\"secret\":\"a\",\"_text\":\"123\"}}");
    flickr_free(json);
    json = flickr_value_json(flickr_value_get(flickr_response_root(resp), "photoid"));
    CHECK_EQ_STR(json, "{\"secret\":\"a\",\"_text\":\"123\"}");
    flickr_free(json);
    CHECK_EQ_STR(flickr_response_body(resp, &len), xml);
    CHECK_EQ_INT(len, sizeof xml - 1);
    CHECK_EQ_INT(flickr_response_http_status(resp), 0);
    flickr_response_free(resp);

    /* Refusals. */
    resp = (flickr_response *)0x1;
    CHECK_EQ_INT(flickr_response_parse(&resp, "<rsp><unclosed></rsp>", 21), FLICKR_EPARSE);
    CHECK(resp == NULL);
    CHECK_EQ_INT(flickr_response_parse(&resp, "", 0), FLICKR_EPARSE);
    CHECK_EQ_INT(flickr_response_parse(&resp, NULL, 0), FLICKR_EPARSE);
    CHECK_EQ_INT(flickr_response_parse(&resp, NULL, 5), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_response_parse(NULL, xml, sizeof xml - 1), FLICKR_EINVAL);
    {
        static const char dtd[] = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><r>&e;</r>";
        CHECK_EQ_INT(flickr_response_parse(&resp, dtd, sizeof dtd - 1), FLICKR_EPARSE);
    }
    /* Handles that are not live are refused, not dereferenced. */
    CHECK(flickr_response_root(NULL) == NULL);
    CHECK(flickr_response_json(NULL) == NULL);
    CHECK(flickr_response_body(NULL, &len) == NULL && len == 0);
    CHECK(flickr_response_root((flickr_response *)&len) == NULL);
    CHECK_EQ_INT(flickr_error_last()->code, FLICKR_EINVAL);
    flickr_response_free(NULL);
    CHECK_EQ_INT(flickr_value_kind(NULL), FLICKR_VALUE_NONE);
    CHECK_EQ_INT(flickr_value_count(NULL), 0);
    CHECK(flickr_value_at(NULL, 0) == NULL);
    CHECK(flickr_value_key_at(NULL, 0) == NULL);
    CHECK(flickr_value_json(NULL) == NULL);
}

static void test_short_urls(void) {
    static const char *vectors[][2] = {{"4325695128", "7Afjsu"}, {"2811466321", "5hruZg"}, {"5169665786", "8SPTwJ"},
                                       {"4425073240", "7K2E7d"}, {"53683417952", "2pMPxRA"}, {"0", "1"}};
    size_t i;
    char expected[64];
    for (i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        char *url = flickr_photo_short_url(vectors[i][0]);
        snprintf(expected, sizeof expected, "https://flic.kr/p/%s", vectors[i][1]);
        CHECK_EQ_STR(url, expected);
        flickr_free(url);
    }
    CHECK(flickr_photo_short_url("12a") == NULL);
    CHECK(flickr_photo_short_url("") == NULL);
    CHECK(flickr_photo_short_url(NULL) == NULL);
    CHECK(flickr_photo_short_url("99999999999999999999999") == NULL);
}

/* docs/protocol.md §11: the Flickr documentation flow, RFC 5849 §3.4.1.1, flickr-sdk. */
static void test_signature_vectors(void) {
    char *base = NULL, *sig;
    const char *step1[] = {"oauth_callback", "http://www.example.com", "oauth_consumer_key",
                           "653e7a6ecc1d528c516cc8f92cf98611", "oauth_nonce", "95613465", "oauth_timestamp",
                           "1305586162", "oauth_signature_method", "HMAC-SHA1", "oauth_version", "1.0", NULL};
    const char *step4[] = {"nojsoncallback", "1", "format", "json", "method", "flickr.test.login", "oauth_nonce",
                           "84354935", "oauth_consumer_key", "653e7a6ecc1d528c516cc8f92cf98611", "oauth_timestamp",
                           "1305583871", "oauth_signature_method", "HMAC-SHA1", "oauth_version", "1.0",
                           "oauth_token", "72157626318069415-087bfc7b5816092c", NULL};
    const char *rfc[] = {"c2", "", "a3", "2 q", "oauth_consumer_key", "9djdj82h48djs9d2", "oauth_token",
                         "kkk9d7dh3k39sjv7", "oauth_signature_method", "HMAC-SHA1", "oauth_timestamp", "137131201",
                         "oauth_nonce", "7d8f3e4a", NULL};
    const char *sdk[] = {"foo", "123", "bar", "456", NULL};

    sig = flickr_oauth_signature("GET", "http://www.flickr.com/services/oauth/request_token", step1,
                                 "a9567d986a7539fe", NULL, &base);
    CHECK_EQ_STR(sig, "7w18YS2bONDPL/zgyzP5XTr5af4=");
    CHECK_EQ_STR(base, "GET&http%3A%2F%2Fwww.flickr.com%2Fservices%2Foauth%2Frequest_token&oauth_callback%3Dhttp%253A%"
                       "252F%252Fwww.example.com%26oauth_consumer_key%3D653e7a6ecc1d528c516cc8f92cf98611%26oauth_nonce%"
                       "3D95613465%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1305586162%26oauth_version%"
                       "3D1.0");
    flickr_free(sig);
    flickr_free(base);
    sig = flickr_oauth_signature("GET", "https://www.flickr.com/services/oauth/request_token", step1,
                                 "a9567d986a7539fe", "", NULL);
    CHECK_EQ_STR(sig, "2zL7aYEzEEY0IvEgQjT7IqB518U=");
    flickr_free(sig);
    sig = flickr_oauth_signature("get", "http://www.flickr.com/services/rest", step4, "a9567d986a7539fe",
                                 "a202d1f853ec69de", NULL);
    CHECK_EQ_STR(sig, "dh3pEH0Xk1qILr82HyhOsxRv1XA=");
    flickr_free(sig);
    sig = flickr_oauth_signature("GET", "https://api.flickr.com/services/rest/", step4, "a9567d986a7539fe",
                                 "a202d1f853ec69de", NULL);
    CHECK_EQ_STR(sig, "5+P7V7+LINmeYM1tz2o0pxXoRGo=");
    flickr_free(sig);
    sig = flickr_oauth_signature("POST", "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", rfc,
                                 "j49sk3j29djd", "dh893hdasih9", NULL);
    CHECK_EQ_STR(sig, "r6/TJjbCOr97/+UU0NsvSne7s5g=");
    flickr_free(sig);
    sig = flickr_oauth_signature("GET", "http://www.example.com", sdk, "consumer secret", "keyboard cat", NULL);
    CHECK_EQ_STR(sig, "pytjoWTzMmvq13/Bai9YVX1tV9c=");
    flickr_free(sig);

    base = (char *)0x1;
    CHECK(flickr_oauth_signature(NULL, "http://x/", NULL, "s", NULL, &base) == NULL);
    CHECK(base == NULL);
    CHECK(flickr_oauth_signature("GET", "ftp://x/", NULL, "s", NULL, NULL) == NULL);
    CHECK(flickr_oauth_signature("G ET", "http://x/", NULL, "s", NULL, NULL) == NULL);
    CHECK(flickr_oauth_signature("GET", "http://x/", NULL, NULL, NULL, NULL) == NULL);
    CHECK_EQ_INT(flickr_error_last()->code, FLICKR_EINVAL);
}

int main(void) {
    test_photo_list();
    test_photo_info();
    test_parse_and_json();
    test_short_urls();
    test_signature_vectors();
    TEST_MAIN_END();
}
