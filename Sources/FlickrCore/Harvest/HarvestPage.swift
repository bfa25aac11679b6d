// SPDX-License-Identifier: MIT

/// One page of a search-like answer, every value checked: total and pages must be counts, each
/// item an object with a numeric id below 2^64. A server's numbers are never trusted.
struct HarvestPage {
    let response: Response
    let total: Int64
    let pages: Int64
    let items: [UnsafePointer<ValueNode>]
    let ids: [UInt64]

    /// Far past anything Flickr counts; more is a broken answer.
    static let maxCount: Int64 = 1 << 53

    @_optimize(size)
    init(_ response: Response, method: String) throws(FlickrError) {
        guard let (container, list) = Pager.pagedList(in: response.root), let totalNode = container.member("total") else {
            throw FlickrError(.parse, "\(method): the answer holds no paged list (total, pages)")
        }
        guard let total = totalNode.string.flatMap(HarvestPage.count) else {
            throw FlickrError(.parse, "\(method): total is not a count: \(HarvestPage.shown(totalNode))")
        }
        var pages: Int64 = 0
        if let pagesNode = container.member("pages") {
            guard let value = pagesNode.string.flatMap(HarvestPage.count) else {
                throw FlickrError(.parse, "\(method): pages is not a count: \(HarvestPage.shown(pagesNode))")
            }
            pages = value
        }
        var items: [UnsafePointer<ValueNode>] = []
        var ids: [UInt64] = []
        if let list {
            let count = list.kind == .array ? list.count : 1
            for index in 0..<count {
                guard let item = list.kind == .array ? list.element(at: index) : list, item.kind == .object else {
                    throw FlickrError(.parse, "\(method): an item is not an object")
                }
                let text = item.member("id")?.string ?? ""
                guard text.utf8.count <= 20, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let id = UInt64(text) else {
                    throw FlickrError(.parse, "\(method): an item has no numeric id: \(String(text.prefix(40)))")
                }
                items.append(item)
                ids.append(id)
            }
        }
        self.response = response
        self.total = total
        self.pages = pages
        self.items = items
        self.ids = ids
    }

    /// Digits, at most 16 of them and at most 2^53.
    @_optimize(size)
    static func count(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int64(text), value <= maxCount else { return nil }
        return value
    }

    @_optimize(size)
    private static func shown(_ node: UnsafePointer<ValueNode>) -> String {
        String((node.string ?? "(not text)").prefix(40))
    }
}
