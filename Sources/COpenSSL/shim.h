/* SHA1_Init/Update/Final are deprecated since OpenSSL 3.0 but still exported by every 3.x
 * libcrypto; they hash without the provider machinery, whose first use (EVP_MD_fetch) builds
 * the name map at about 3 M instructions: most of a fresh process's first signed call
 * (bench/NOTES.md, Change 13). Suppressing the deprecation keeps -warnings-as-errors builds quiet. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
