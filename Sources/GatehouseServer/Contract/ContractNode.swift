import GatehouseInfrastructure

/// A JSON value while ``ContractEncoder`` writes it: containers hand out child nodes that their
/// members fill in later, so nodes are shared references (one encoding, one thread).
final class ContractNode {
    /// An object's members, once a keyed container was asked for (several may be: `allOf`).
    var members: [String: ContractNode]?
    /// An array's elements, once an unkeyed container was asked for.
    var elements: [ContractNode]?
    /// A single value (string, number, boolean, null).
    var value: JSONValue?

    /// The member `key` of this object, made empty (an object is made of this node first).
    func member(_ key: String) -> ContractNode {
        let child = ContractNode()
        if members == nil { members = [:] }
        members![key] = child
        return child
    }

    /// A new last element of this array (an array is made of this node first).
    func append() -> ContractNode {
        let child = ContractNode()
        if elements == nil { elements = [] }
        elements!.append(child)
        return child
    }

    /// Writes `null` for the member at the end of `path` wherever the path leads to an object without it.
    /// - Parameter path: Member names; arrays on the way are entered element by element.
    func fillNull(_ path: ArraySlice<String>) {
        if let elements {
            for element in elements { element.fillNull(path) }
            return
        }
        guard let key = path.first, members != nil else { return }
        if path.count == 1 {
            if members![key] == nil { members![key] = ContractNode() }
        } else {
            members![key]?.fillNull(path.dropFirst())
        }
    }

    /// The finished value (`null` for a node nothing was written to).
    var json: JSONValue {
        if let members { return .object(members.mapValues(\.json)) }
        if let elements { return .array(elements.map(\.json)) }
        return value ?? .null
    }
}
