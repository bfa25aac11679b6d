// SPDX-License-Identifier: MIT

internal import CFlickr  // only for @c @implementation: no C type in these signatures
internal import FlickrCore
import Glibc

/// Performs an operation on a live context and hands the response out through `out`.
private func perform(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?,
    _ operation: (Context) throws(FlickrError) -> any Operation
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let context = try contexts.object(ctx)
        let response = try context.perform(try operation(context))
        out.pointee = responses.register(response)
    }
}

@c @implementation
public func flickr_oauth_request_token(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ callbackURL: UnsafePointer<CChar>?
) -> CInt {
    perform(out, ctx) { _ throws(FlickrError) in
        try OAuthTokenRequest(.requestToken(callback: try requiredString(callbackURL, "callback_url")))
    }
}

@c @implementation
public func flickr_oauth_authorize_url(
    _ ctx: OpaquePointer?, _ requestToken: UnsafePointer<CChar>?, _ perms: UnsafePointer<CChar>?
) -> UnsafeMutablePointer<CChar>? {
    ownedResult { () throws(FlickrError) in
        let context = try contexts.object(ctx)
        return try OAuthFlow.authorizeURL(
            settings: context.snapshot, requestToken: try requiredString(requestToken, "request_token"),
            perms: try optionalString(perms, "perms"))
    }
}

@c @implementation
public func flickr_oauth_parse_callback(
    _ url: UnsafePointer<CChar>?, _ tokenOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ verifierOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    tokenOut?.pointee = nil
    verifierOut?.pointee = nil
    return boundary { () throws(FlickrError) in
        guard let tokenOut else { throw .invalid("token_out must not be NULL") }
        guard let verifierOut else { throw .invalid("verifier_out must not be NULL") }
        let callback = try OAuthFlow.parseCallback(try requiredString(url, "url"))
        let token = try ownedCString(callback.token)
        do throws(FlickrError) {
            verifierOut.pointee = try ownedCString(callback.verifier)
        } catch {
            free(token)
            throw error
        }
        tokenOut.pointee = token
    }
}

@c @implementation
public func flickr_oauth_access_token(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ requestToken: UnsafePointer<CChar>?,
    _ requestTokenSecret: UnsafePointer<CChar>?, _ verifier: UnsafePointer<CChar>?
) -> CInt {
    perform(out, ctx) { _ throws(FlickrError) in
        try OAuthTokenRequest(
            .accessToken(
                requestToken: try requiredString(requestToken, "request_token"),
                requestTokenSecret: try requiredString(requestTokenSecret, "request_token_secret"),
                verifier: try requiredString(verifier, "verifier")))
    }
}

@c @implementation
public func flickr_oauth_check_token(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ token: UnsafePointer<CChar>?,
    _ tokenSecret: UnsafePointer<CChar>?
) -> CInt {
    perform(out, ctx) { context throws(FlickrError) in
        let token = try optionalString(token, "token")
        return try AuthCall.checkToken(
            settings: context.snapshot, token: token,
            secret: token == nil ? nil : try optionalString(tokenSecret, "token_secret"))
    }
}

@c @implementation
public func flickr_oauth_exchange_legacy_token(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ authToken: UnsafePointer<CChar>?
) -> CInt {
    perform(out, ctx) { context throws(FlickrError) in
        try AuthCall.exchangeLegacyToken(
            settings: context.snapshot, authToken: try optionalString(authToken, "auth_token"))
    }
}

// MARK: Legacy (deprecated) authentication

@c @implementation
public func flickr_auth_get_frob(
    _ frobOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ ctx: OpaquePointer?
) -> CInt {
    frobOut?.pointee = nil
    return boundary { () throws(FlickrError) in
        guard let frobOut else { throw .invalid("frob_out must not be NULL") }
        let context = try contexts.object(ctx)
        let response = try context.perform(
            try AuthCall(method: "flickr.auth.getFrob", signing: .legacy(authToken: nil)))
        guard let frob = response.root.lookup(path: "frob")?.string, !frob.isEmpty else {
            throw FlickrError(.parse, "flickr.auth.getFrob answered without a frob", httpStatus: Int32(clamping: response.httpStatus))
        }
        frobOut.pointee = try ownedCString(frob)
    }
}

@c @implementation
public func flickr_auth_login_url(
    _ ctx: OpaquePointer?, _ frob: UnsafePointer<CChar>?, _ perms: UnsafePointer<CChar>?
) -> UnsafeMutablePointer<CChar>? {
    ownedResult { () throws(FlickrError) in
        let context = try contexts.object(ctx)
        return try OAuthFlow.legacyLoginURL(
            settings: context.snapshot, frob: try requiredString(frob, "frob"),
            perms: try requiredString(perms, "perms"))
    }
}

@c @implementation
public func flickr_auth_get_token(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ frob: UnsafePointer<CChar>?
) -> CInt {
    perform(out, ctx) { _ throws(FlickrError) in
        let frob = try requiredString(frob, "frob")
        try OAuthFlow.requireToken(frob, what: "frob")
        return try AuthCall(method: "flickr.auth.getToken", parameters: [("frob", frob)], signing: .legacy(authToken: nil))
    }
}

@c @implementation
public func flickr_auth_api_sig(
    _ sharedSecret: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?
) -> UnsafeMutablePointer<CChar>? {
    ownedResult { () throws(FlickrError) in
        let secret = try requiredString(sharedSecret, "shared_secret")
        guard !secret.isEmpty else { throw .invalid("shared_secret must not be empty") }
        let signature = LegacySignature.apiSig(secret: secret, parameters: try parameters(params))
        guard !signature.isEmpty else { throw FlickrError(.error, "MD5 is not available from libcrypto") }
        return signature
    }
}
