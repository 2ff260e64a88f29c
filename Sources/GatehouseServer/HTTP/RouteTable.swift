import HTTPTypes

/// The paths the server answers and the methods each allows, so a known path with the wrong method
/// gets 405 and an `Allow` header (Hummingbird's router alone answers 404), and the OpenAPI test can
/// compare the document with what is really served.
public final class RouteTable: Sendable {
    private let methods: [String: [HTTPRequest.Method]]

    init(_ routes: [(String, HTTPRequest.Method)]) {
        var methods: [String: [HTTPRequest.Method]] = [:]
        for (path, method) in routes { methods[path, default: []].append(method) }
        self.methods = methods
    }

    public var paths: [String] { methods.keys.sorted() }

    public func methods(for path: String) -> [HTTPRequest.Method] {
        var normalized = path
        while normalized.count > 1, normalized.hasSuffix("/") { normalized.removeLast() }
        if let exact = methods[normalized] { return exact }
        // Templates: `{name}` matches one segment.
        let segments = normalized.split(separator: "/", omittingEmptySubsequences: false)
        for (template, allowed) in methods where template.contains("{") {
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == segments.count, zip(parts, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 }) { return allowed }
        }
        return []
    }

    /// Every (path, method) pair.
    public var all: [(path: String, method: String)] {
        methods.keys.sorted().flatMap { path in methods[path]!.map { (path, $0.rawValue) } }
    }
}
