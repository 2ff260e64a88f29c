import GatehouseInfrastructure
import OpenAPIRuntime

/// A ``JSONValue`` object as the generated types' free-form object (a schema member that is `{type: object}`).
extension OpenAPIObjectContainer {
    /// - Parameter json: A JSON object.
    /// - Throws: `EncodingError.invalidValue` when `json` is not an object.
    init(_ json: JSONValue) throws {
        guard case .object(let members) = json else {
            throw EncodingError.invalidValue(json.typeName, .init(codingPath: [], debugDescription: "not a JSON object"))
        }
        try self.init(unvalidatedValue: members.mapValues(Self.plain))
    }

    /// The value as the Swift values `OpenAPIValueContainer` takes (integral numbers as `Int`).
    private static func plain(_ json: JSONValue) -> (any Sendable)? {
        switch json {
        case .null: nil
        case .bool(let value): value
        case .number(let value): json.int64Value.map { Int($0) } ?? value
        case .string(let value): value
        case .array(let values): values.map(plain)
        case .object(let members): members.mapValues(plain)
        }
    }
}
