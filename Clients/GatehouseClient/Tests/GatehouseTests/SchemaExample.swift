import Foundation

@testable import Gatehouse

/// JSON bodies built from a document schema, for the response checks: every documented property with a
/// value of its documented type, plus variants that change one leaf, set one nullable leaf to `null`, or
/// leave out every optional property.
///
/// A path names a leaf by property names, with `[]` for an array's (single) item: `identities.[].provider`.
struct SchemaExample {
    /// Which body to build.
    enum Variant: Equatable {
        /// Every property, with its base value.
        case base
        /// The base body with the leaf at this path given another value of the same type.
        case changed([String])
        /// The base body with the (nullable) leaf at this path set to `null`.
        case null([String])
        /// Only the required properties, at every level.
        case requiredOnly
    }

    /// The document the schemas come from (to follow `$ref`s).
    let document: OpenAPIDocument

    /// Every leaf (a property that is not an object or an array) of `schema`, with whether it may be `null`.
    ///
    /// - Parameters:
    ///   - schema: A flattened schema.
    ///   - prefix: The path of `schema` itself.
    /// - Returns: The leaves' paths, in property-name order.
    func leaves(_ schema: [String: Any], prefix: [String] = []) -> [(path: [String], nullable: Bool)] {
        switch Self.kind(schema) {
        case "object":
            let properties = schema["properties"] as? [String: Any] ?? [:]
            return properties.keys.sorted().flatMap { leaves(document.schema(properties[$0]), prefix: prefix + [$0]) }
        case "array":
            return leaves(document.schema(schema["items"]), prefix: prefix + ["[]"])
        default:
            return [(prefix, Self.types(schema).contains("null"))]
        }
    }

    /// A body for `schema`.
    ///
    /// - Parameters:
    ///   - schema: A flattened schema.
    ///   - variant: Which body to build.
    ///   - path: The path of `schema` itself.
    /// - Returns: A JSON value for `JSONSerialization`.
    func body(_ schema: [String: Any], _ variant: Variant, at path: [String] = []) -> Any {
        if variant == .null(path) { return NSNull() }
        switch Self.kind(schema) {
        case "object":
            let properties = schema["properties"] as? [String: Any] ?? [:]
            let names = variant == .requiredOnly ? Set(schema["required"] as? [String] ?? []) : Set(properties.keys)
            var object: [String: Any] = [:]
            for name in names { object[name] = body(document.schema(properties[name]), variant, at: path + [name]) }
            return object
        case "array":
            return [body(document.schema(schema["items"]), variant, at: path + ["[]"])]
        default:
            return leaf(schema, changed: variant == .changed(path), name: path.joined(separator: "."))
        }
    }

    /// `body` serialised.
    ///
    /// - Parameters:
    ///   - schema: A flattened schema.
    ///   - variant: Which body to build.
    /// - Returns: The JSON bytes.
    /// - Throws: When `JSONSerialization` refuses the value (it should not).
    func data(_ schema: [String: Any], _ variant: Variant) throws -> Data {
        try JSONSerialization.data(withJSONObject: body(schema, variant), options: [.sortedKeys])
    }

    private func leaf(_ schema: [String: Any], changed: Bool, name: String) -> Any {
        let type = Self.kind(schema)
        if type == "boolean" {
            let base = (schema["const"] as? Bool) ?? true
            return changed ? !base : base
        }
        if type == "integer" { return changed ? 3607 : 3600 }
        if type == "number" { return changed ? 8.5 : 1.5 }
        if let constant = schema["const"] as? String { return changed ? constant + "-changed" : constant }
        if let values = schema["enum"] as? [String], let first = values.first {
            return changed ? (values.dropFirst().first ?? first + "-changed") : first
        }
        // Bytes as base64url (WebAuthn's challenges, credential ids and user handles), which the SDK decodes.
        if let pattern = schema["pattern"] as? String, pattern.hasPrefix("^[A-Za-z0-9_-]") {
            return Base64URL.encode(Data((changed ? "\(name)-example-changed" : "\(name)-example").utf8))
        }
        if schema["format"] as? String == "date-time" { return changed ? "2027-01-02T03:04:05Z" : "2026-11-23T10:00:00Z" }
        return changed ? "\(name)-example-changed" : "\(name)-example"
    }

    /// The schema's `type`, as a list (`type: [string, 'null']` or `type: string`).
    static func types(_ schema: [String: Any]) -> [String] {
        if let list = schema["type"] as? [String] { return list }
        return (schema["type"] as? String).map { [$0] } ?? []
    }

    /// The schema's non-null type; `object` for a schema with properties and no type.
    static func kind(_ schema: [String: Any]) -> String {
        types(schema).first { $0 != "null" } ?? (schema["properties"] != nil ? "object" : "string")
    }
}
