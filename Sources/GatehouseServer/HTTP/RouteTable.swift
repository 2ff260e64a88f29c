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
        return methods[normalized] ?? []
    }

    /// Every (path, method) pair.
    public var all: [(path: String, method: String)] {
        methods.keys.sorted().flatMap { path in methods[path]!.map { (path, $0.rawValue) } }
    }
}
