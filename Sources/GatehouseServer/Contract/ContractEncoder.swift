import Foundation
import GatehouseInfrastructure

/// Writes a ``ContractBody`` as a ``JSONValue``, by its schema's ``ResponseRules``: a `Date` becomes
/// RFC 3339 text (milliseconds where the rules say, whole seconds elsewhere), a nil optional is left
/// out and then the rules' required nullable members are written as `null`. Serialised by
/// `JSONValue.serialized()`, which sorts keys and leaves slashes unescaped.
struct ContractEncoder: Encoder {
    let node: ContractNode
    /// The member names from the body to here, joined by dots (array positions left out); kept only
    /// when the rules name times with milliseconds, the one thing it decides while writing.
    let path: String
    let rules: ResponseRules
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The members' names on the way here (for error messages only: the generated types never read it).
    var codingPath: [any CodingKey] { path.split(separator: ".").map { ContractKey(String($0)) } }

    /// - Parameters:
    ///   - value: The body.
    ///   - rules: Its schema's rules.
    /// - Returns: The JSON value.
    /// - Throws: What the value's `encode(to:)` throws.
    static func json(of value: some Encodable, rules: ResponseRules) throws -> JSONValue {
        let root = ContractNode()
        try ContractEncoder(node: root, path: "", rules: rules).write(value)
        for path in rules.nulls { root.fillNull(path[...]) }
        return root.json
    }

    /// Writes a value into this encoder's node: a time as text, anything else by its own `encode(to:)`.
    func write<T: Encodable>(_ value: T) throws {
        if let date = value as? Date {
            node.value = .string(rules.milliseconds.contains(path) ? ContractTimestamp.milliseconds(date) : ContractTimestamp.string(date))
        } else {
            try value.encode(to: self)
        }
    }

    /// The encoder of an object's member.
    func member(_ key: any CodingKey) -> ContractEncoder {
        let name = key.stringValue
        let path = rules.milliseconds.isEmpty ? "" : self.path.isEmpty ? name : self.path + "." + name
        return ContractEncoder(node: node.member(name), path: path, rules: rules)
    }

    /// The encoder of an array's next element.
    func element() -> ContractEncoder {
        ContractEncoder(node: node.append(), path: path, rules: rules)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [:] }
        return KeyedEncodingContainer(ContractKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return ContractUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ContractSingleValueContainer(encoder: self)
    }
}

/// A member's name in a coding path.
struct ContractKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
