// SPDX-License-Identifier: MIT

/// Polls flickr.photos.upload.checkTickets until an asynchronous upload's
/// ticket completes (giving the photo id) or fails, backing off between polls.
package enum TicketWaiter {
    package static func waitForPhotoID(
        context: Context, ticketID: String, timeoutMs: Int, firstDelayMs: Int = 250, maxDelayMs: Int = 5_000
    ) throws(FlickrError) -> String {
        guard !ticketID.isEmpty, !ticketID.contains(",") else {
            throw .invalid("ticket_id must be one ticket id")
        }
        guard timeoutMs >= 0 else { throw .invalid("timeout_ms must not be negative") }
        // Saturating: LONG_MAX means "wait as long as it takes", not a wrapped, past deadline.
        let deadline = MonotonicClock.nowNs().addingSaturated(.nanoseconds(milliseconds: timeoutMs))
        var delayMs = firstDelayMs
        let call = try RESTCall(method: "flickr.photos.upload.checkTickets", parameters: [("tickets", ticketID)],
                                verb: .get)
        while true {
            let response = try context.perform(call)
            if let ticket = ticketNode(response.root, id: ticketID) {
                if ticket.member("invalid")?.string == "1" {
                    throw FlickrError(.api, "upload ticket \(ticketID) is unknown to Flickr")
                }
                switch ticket.member("complete")?.string {
                case "1":
                    guard let photoID = ticket.member("photoid")?.string, !photoID.isEmpty else {
                        throw FlickrError(.parse, "ticket \(ticketID) is complete but names no photo")
                    }
                    ReplacedPhotos.record(photoID)  // an asynchronous replace's new image is in place now
                    return photoID
                case "2":
                    throw FlickrError(.api, "upload ticket \(ticketID) failed: Flickr could not process the file")
                default:
                    break
                }
            }
            let now = MonotonicClock.nowNs()
            guard now < deadline else {
                throw FlickrError(.timeout, "upload ticket \(ticketID) did not complete within \(timeoutMs) ms")
            }
            guard InterruptCheck.sleep(ns: min(.nanoseconds(milliseconds: delayMs), deadline - now),
                                       checking: context.snapshot.interrupt)
            else { throw InterruptCheck.interrupted }
            delayMs = min(delayMs * 2, maxDelayMs)
        }
    }

    private static func ticketNode(_ root: UnsafePointer<ValueNode>, id: String) -> UnsafePointer<ValueNode>? {
        guard let tickets = root.lookup(path: "uploader.ticket") else { return nil }
        if tickets.kind == .object { return tickets.member("id")?.string == id ? tickets : nil }
        for index in 0..<tickets.count {
            if let ticket = tickets.element(at: index), ticket.member("id")?.string == id { return ticket }
        }
        return nil
    }
}
