// SPDX-License-Identifier: MIT

/// Flickr's deprecated pre-OAuth `api_sig` (docs/protocol.md §6), kept for the frob flow and for
/// `flickr.auth.oauth.getAccessToken` migration.
package enum LegacySignature {
    /// Lowercase hex MD5 of secret + name + value for each pair sorted by name (byte order; equal names by
    /// value), raw values; skips api_sig and photo. Empty only if libcrypto refuses MD5.
    @_optimize(size)
    package static func apiSig(secret: String, parameters: [(String, String)]) -> String {
        let signed =
            parameters
            .filter { $0.0 != "api_sig" && $0.0 != "photo" }
            .sortedStably { a, b in
                if a.0 != b.0 { return a.0.utf8.lexicographicallyPrecedes(b.0.utf8) }
                return a.1.utf8.lexicographicallyPrecedes(b.1.utf8)
            }
        var text = Array(secret.utf8)
        for (name, value) in signed {
            text += name.utf8
            text += value.utf8
        }
        guard let digest = Crypto.md5(text) else { return "" }
        return Crypto.hex(digest)
    }
}
