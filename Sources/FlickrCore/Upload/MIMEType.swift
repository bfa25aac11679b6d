// SPDX-License-Identifier: MIT

/// The MIME type of a photo or video from its file name's extension.
enum MIMEType {
    private static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heic", "heif": "image/heif", "webp": "image/webp",
        "bmp": "image/bmp", "mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime",
        "avi": "video/x-msvideo", "mpg": "video/mpeg", "mpeg": "video/mpeg", "3gp": "video/3gpp",
        "wmv": "video/x-ms-wmv", "ogv": "video/ogg", "mts": "video/mp2t", "m2ts": "video/mp2t",
    ]

    @_optimize(size)
    static func guess(filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else {
            return "application/octet-stream"
        }
        let ext = filename[filename.index(after: dot)...].asciiLowercased()  // the extensions are ASCII
        return byExtension[ext] ?? "application/octet-stream"
    }
}
