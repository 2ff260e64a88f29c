import Foundation

/// The server's OpenAPI document (`Sources/GatehouseServer/Resources/openapi.yaml`), the one source of the
/// contract the SDK's wire models are checked against.
///
/// The SDK is Foundation-only, so the YAML is turned into JSON by `python3` with PyYAML (which CI installs).
/// A missing interpreter, module or file is a thrown ``LoadError``, so the contract tests fail rather than skip.
struct OpenAPIDocument: @unchecked Sendable {
    /// Why the document could not be read.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the document lives relative to the repository root.
    static let relativePath = "Sources/GatehouseServer/Resources/openapi.yaml"

    /// The document as JSON objects (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`).
    let root: [String: Any]
    /// The file it was read from.
    let url: URL

    /// Reads the document found above `testFile` (this package sits at `Clients/GatehouseClient` in the repository),
    /// or the one `GATEHOUSE_OPENAPI_PATH` names (to try the tests against an edited copy).
    ///
    /// - Parameter testFile: A file inside the repository; the search walks up from its directory.
    /// - Returns: The parsed document.
    /// - Throws: ``LoadError`` when the file is not found, or `python3`/PyYAML is missing or fails.
    static func load(near testFile: String = #filePath) throws -> OpenAPIDocument {
        let override = ProcessInfo.processInfo.environment["GATEHOUSE_OPENAPI_PATH"].map { URL(fileURLWithPath: $0) }
        let url = try override ?? locate(near: testFile)
        let script = "import sys, json, yaml; json.dump(yaml.safe_load(open(sys.argv[1], encoding='utf-8')), sys.stdout, default=str)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw LoadError(description: "cannot run /usr/bin/env python3 (\(error)); python3 with PyYAML is required for the contract tests")
        }
        let json = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoadError(
                description: "python3 could not convert \(url.path) (exit \(process.terminationStatus)); "
                    + "the contract tests need python3 with PyYAML (pip install pyyaml):\n\(stderr)"
            )
        }
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any], root["paths"] is [String: Any] else {
            throw LoadError(description: "\(url.path) is not an OpenAPI document with paths")
        }
        return OpenAPIDocument(root: root, url: url)
    }

    /// The document's file: the first directory above `testFile` that holds ``relativePath``.
    ///
    /// - Parameter testFile: A file inside the repository.
    /// - Returns: The document's URL.
    /// - Throws: ``LoadError`` when no directory above holds it.
    static func locate(near testFile: String) throws -> URL {
        var directory = URL(fileURLWithPath: testFile).standardizedFileURL.deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let candidate = directory.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw LoadError(description: "no \(relativePath) in any directory above \(testFile)")
    }

    // MARK: Lookups

    /// The operation object for `method` and `path`, if documented.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST` …
    ///   - path: The path, e.g. `/auth/signin`; a path with a value where the template has a `{parameter}`
    ///     (`/me/sessions/0193…`) finds that template's operation.
    /// - Returns: The operation, or `nil`.
    func operation(_ method: String, _ path: String) -> [String: Any]? {
        guard let paths = root["paths"] as? [String: Any] else { return nil }
        let template = paths[path] != nil ? path : paths.keys.sorted().first { Self.path(path, matches: $0) }
        return (template.flatMap { paths[$0] } as? [String: Any])?[method.lowercased()] as? [String: Any]
    }

    /// Whether `path` fits `template` segment by segment, a `{parameter}` segment taking any one non-empty segment.
    static func path(_ path: String, matches template: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let expected = template.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == expected.count, template.contains("{") else { return false }
        return zip(segments, expected).allSatisfy { segment, part in
            part == segment || (part.hasPrefix("{") && part.hasSuffix("}") && !segment.isEmpty)
        }
    }

    /// Follows `$ref`s (local ones, `#/components/…`) until a node without one.
    ///
    /// - Parameter node: Any node of the document.
    /// - Returns: The node it refers to.
    func resolve(_ node: Any?) -> [String: Any] {
        var current = node as? [String: Any] ?? [:]
        while let ref = current["$ref"] as? String, ref.hasPrefix("#/") {
            var target: Any? = root
            for key in ref.dropFirst(2).split(separator: "/") { target = (target as? [String: Any])?[String(key)] }
            current = target as? [String: Any] ?? [:]
        }
        return current
    }

    /// A schema with its `$ref`s followed and an `allOf` merged into one object schema (properties and
    /// required names united), which is how `SocialTokens` is written.
    ///
    /// - Parameter node: A schema node.
    /// - Returns: The flattened schema.
    func schema(_ node: Any?) -> [String: Any] {
        var schema = resolve(node)
        guard let parts = schema.removeValue(forKey: "allOf") as? [Any] else { return schema }
        var properties = schema["properties"] as? [String: Any] ?? [:]
        var required = schema["required"] as? [String] ?? []
        for part in parts.map({ self.schema($0) }) {
            properties.merge(part["properties"] as? [String: Any] ?? [:]) { first, _ in first }
            required += part["required"] as? [String] ?? []
            for (key, value) in part where key != "properties" && key != "required" && schema[key] == nil { schema[key] = value }
        }
        schema["properties"] = properties
        schema["required"] = Array(Set(required)).sorted()
        return schema
    }

    /// The JSON request body schema of an operation.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path template.
    /// - Returns: The schema and whether the document requires a body, or `nil` when none is documented.
    func requestBody(_ method: String, _ path: String) -> (schema: [String: Any], required: Bool)? {
        let body = resolve(operation(method, path)?["requestBody"])
        guard let json = (body["content"] as? [String: Any])?["application/json"] as? [String: Any] else { return nil }
        return (schema(json["schema"]), body["required"] as? Bool ?? false)
    }

    /// The JSON response body schema of an operation for one status.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path template.
    ///   - status: The status, e.g. 200.
    /// - Returns: The schema, or `nil` when that status has no JSON body documented.
    func responseBody(_ method: String, _ path: String, status: Int) -> [String: Any]? {
        let response = resolve((operation(method, path)?["responses"] as? [String: Any])?[String(status)])
        guard let json = (response["content"] as? [String: Any])?["application/json"] as? [String: Any] else { return nil }
        return schema(json["schema"])
    }

    /// The documented success status of an operation (the lowest 2xx).
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path template.
    /// - Returns: The status, or `nil` when the operation documents none.
    func successStatus(_ method: String, _ path: String) -> Int? {
        let statuses = (operation(method, path)?["responses"] as? [String: Any])?.keys.compactMap { Int($0) } ?? []
        return statuses.filter { (200..<300).contains($0) }.min()
    }

    /// The documented query parameters of an operation.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path template.
    /// - Returns: Every query parameter's name, with whether it is required.
    func queryParameters(_ method: String, _ path: String) -> [String: Bool] {
        var names: [String: Bool] = [:]
        for parameter in (operation(method, path)?["parameters"] as? [Any] ?? []).map(resolve) where parameter["in"] as? String == "query" {
            if let name = parameter["name"] as? String { names[name] = parameter["required"] as? Bool ?? false }
        }
        return names
    }
}
