// SPDX-License-Identifier: MIT

internal import CFlickr  // only for @c @implementation: no C type in these signatures
internal import FlickrCore
import Glibc

@c @implementation
public func flickr_oauth_signature(
    _ httpMethod: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ consumerSecret: UnsafePointer<CChar>?, _ tokenSecret: UnsafePointer<CChar>?,
    _ baseStringOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> UnsafeMutablePointer<CChar>? {
    baseStringOut?.pointee = nil
    do throws(FlickrError) {
        let method = try requiredString(httpMethod, "http_method").asciiUppercased()
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw FlickrError.invalid("http_method must be a word such as GET or POST")
        }
        let base = try OAuthSignature.baseString(
            method: method, url: try requiredString(url, "url"), parameters: try parameters(params))
        let signature = OAuthSignature.hmacSHA1(
            base: base, consumerSecret: try requiredString(consumerSecret, "consumer_secret"),
            tokenSecret: try optionalString(tokenSecret, "token_secret") ?? "")
        let result = try ownedCString(signature)
        if let baseStringOut {
            do throws(FlickrError) {
                baseStringOut.pointee = try ownedCString(base)
            } catch {
                free(result)
                throw error
            }
        }
        return result
    } catch {
        ErrorSlot.record(error)
        return nil
    }
}
