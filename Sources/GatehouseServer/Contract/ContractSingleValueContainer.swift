import GatehouseInfrastructure

/// ``ContractEncoder``'s single-value container (enumerations' raw values, `OpenAPIValueContainer`).
struct ContractSingleValueContainer: SingleValueEncodingContainer, ContractPrimitiveContainer {
    let encoder: ContractEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func put(_ value: JSONValue) { encoder.node.value = value }

    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.write(value) }
}
