// SPDX-License-Identifier: MIT

import CCurl
import Glibc

/// Maps libcurl's result codes onto the library's status codes.
enum CurlErrorMapping {
    @_optimize(size)
    static func code(for curlCode: CURLcode) -> FlickrError.Code {
        switch curlCode {
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_CLIENTCERT:
            return .tls
        case CURLE_FILESIZE_EXCEEDED:
            return .tooBig
        case CURLE_ABORTED_BY_CALLBACK:
            return .aborted
        case CURLE_READ_ERROR:
            return .io
        case CURLE_OUT_OF_MEMORY:
            return .noMemory
        case CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT:
            return .invalidArgument
        // The URL's scheme was checked before the transfer, so this is the server's doing
        // (an HTTP/0.9 answer, a redirect elsewhere): a broken answer, like a bad status line.
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY:
            return .network
        default:
            return .network
        }
    }

    /// `midHeaders`: the failure came while the answer's headers were arriving.
    @_optimize(size)
    static func error(for curlCode: CURLcode, detail: String, url: String, maxResponseBytes: Int,
                      midHeaders: Bool = false, osErrno: Int32 = 0) -> FlickrError {
        // Out of descriptors is not a network failure: retrying or checking the server won't help.
        if osErrno == EMFILE || osErrno == ENFILE {
            return FlickrError(.noMemory, "out of file descriptors (\(String(cString: strerror(osErrno)))) while "
                               + "connecting to \(url): lower FLICKR_OPT_MAX_CONNECTIONS or raise the process's limit")
        }
        var code = code(for: curlCode)
        // libcurl reports a header line longer than it accepts as "out of memory".
        if curlCode == CURLE_OUT_OF_MEMORY, midHeaders || detail.containsText("header") { code = .tooBig }
        if code == .tooBig {
            guard curlCode == CURLE_FILESIZE_EXCEEDED else {
                return FlickrError(.tooBig, "the answer's headers from \(url) are larger than libcurl accepts")
            }
            return FlickrError(.tooBig, "the response from \(url) exceeds \(maxResponseBytes) bytes")
        }
        let reason = String(cString: curl_easy_strerror(curlCode))
        let extra = detail.isEmpty || detail == reason ? "" : ": \(detail.trimmingSpaces)"
        return FlickrError(code, "\(reason)\(extra) (\(url))")
    }
}
