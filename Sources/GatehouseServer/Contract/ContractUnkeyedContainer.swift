import GatehouseInfrastructure

/// ``ContractEncoder``'s array container.
struct ContractUnkeyedContainer: UnkeyedEncodingContainer, ContractPrimitiveContainer {
    let encoder: ContractEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.elements?.count ?? 0 }

    private func next() -> ContractEncoder { encoder.element() }
    func put(_ value: JSONValue) { next().node.value = value }

    mutating func encode<T: Encodable>(_ value: T) throws { try next().write(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { next() }
}
