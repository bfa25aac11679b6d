// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore
import Glibc

/// The C view of MethodCatalogue (flickr/methods.h): built once, on first use, in three blocks
/// (the records, the NULL-terminated name lists, the text) that live as long as the process, as
/// the header promises. Nil only if that first allocation failed. Never written after it is
/// built (under the global's once-initialisation), so sharing it between threads is safe.
nonisolated(unsafe) private let methodRecords: UnsafeMutableBufferPointer<flickr_method_info>? = makeMethodRecords()

private func makeMethodRecords() -> UnsafeMutableBufferPointer<flickr_method_info>? {
    let methods = MethodCatalogue.methods
    var textBytes = 0, listSlots = 0
    for method in methods {
        textBytes += method.name.utf8.count + method.documentationURL.utf8.count + 2
        for argument in method.required + method.optional { textBytes += argument.utf8.count + 1 }
        listSlots += method.required.count + method.optional.count + 2
    }
    guard let recordBlock = malloc(max(1, methods.count * MemoryLayout<flickr_method_info>.stride)) else { return nil }
    guard let listBlock = malloc(listSlots * MemoryLayout<UnsafePointer<CChar>?>.stride) else {
        free(recordBlock)
        return nil
    }
    guard let textBlock = malloc(textBytes) else {
        free(recordBlock)
        free(listBlock)
        return nil
    }
    let records = UnsafeMutableBufferPointer(
        start: recordBlock.bindMemory(to: flickr_method_info.self, capacity: methods.count), count: methods.count)
    let slots = listBlock.bindMemory(to: UnsafePointer<CChar>?.self, capacity: listSlots)
    let text = textBlock.bindMemory(to: CChar.self, capacity: textBytes)
    var textUsed = 0, slotsUsed = 0
    func store(_ string: String) -> UnsafePointer<CChar> {
        let start = text + textUsed
        for byte in string.utf8 {
            text[textUsed] = CChar(bitPattern: byte)
            textUsed += 1
        }
        text[textUsed] = 0
        textUsed += 1
        return UnsafePointer(start)
    }
    func storeList(_ names: [String]) -> UnsafePointer<UnsafePointer<CChar>?> {
        let start = slots + slotsUsed
        for name in names {
            slots[slotsUsed] = store(name)
            slotsUsed += 1
        }
        slots[slotsUsed] = nil
        slotsUsed += 1
        return UnsafePointer(start)
    }
    for (index, method) in methods.enumerated() {
        records.initializeElement(at: index, to: flickr_method_info(
            name: store(method.name),
            verb: method.verb == .post ? FLICKR_POST : FLICKR_GET,
            permission: flickr_permission(rawValue: UInt32(method.permission.rawValue)),
            required: storeList(method.required),
            optional: storeList(method.optional),
            doc_url: store(method.documentationURL)))
    }
    return records
}

@c @implementation
public func flickr_method_find(_ out: UnsafeMutablePointer<UnsafePointer<flickr_method_info>?>?,
                               _ name: UnsafePointer<CChar>?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let wanted = try requiredString(name, "name")
        guard let records = methodRecords else { throw FlickrError(.noMemory, "out of memory") }
        guard let index = MethodCatalogue.index(named: wanted), let base = records.baseAddress else {
            throw FlickrError(.notFound, "\(wanted) is not in libflickr's method catalogue")
        }
        out.pointee = UnsafePointer(base + index)
    }
}

@c @implementation
public func flickr_method_count() -> Int {
    methodRecords?.count ?? 0
}

@c @implementation
public func flickr_method_at(_ index: Int) -> UnsafePointer<flickr_method_info>? {
    guard let records = methodRecords, index >= 0, index < records.count, let base = records.baseAddress else {
        return nil
    }
    return UnsafePointer(base + index)
}
