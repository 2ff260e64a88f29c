import GatehouseInfrastructure

/// What ``ContractEncoder``'s single-value and array containers share: every primitive `encode` becomes
/// one ``JSONValue`` handed to ``put(_:)`` (a number as a `Double`, which holds the contract's integers
/// exactly: they are all far below 2^53).
protocol ContractPrimitiveContainer {
    /// Writes one value where the container writes (its node, or its array's next element).
    /// - Parameter value: The value.
    mutating func put(_ value: JSONValue)
}

extension ContractPrimitiveContainer {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.number(value)) }
    mutating func encode(_ value: Float) throws { put(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { put(.number(Double(value))) }
    mutating func encode(_ value: Int8) throws { put(.number(Double(value))) }
    mutating func encode(_ value: Int16) throws { put(.number(Double(value))) }
    mutating func encode(_ value: Int32) throws { put(.number(Double(value))) }
    mutating func encode(_ value: Int64) throws { put(.number(Double(value))) }
    mutating func encode(_ value: UInt) throws { put(.number(Double(value))) }
    mutating func encode(_ value: UInt8) throws { put(.number(Double(value))) }
    mutating func encode(_ value: UInt16) throws { put(.number(Double(value))) }
    mutating func encode(_ value: UInt32) throws { put(.number(Double(value))) }
    mutating func encode(_ value: UInt64) throws { put(.number(Double(value))) }
}
