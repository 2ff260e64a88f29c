/// What a response schema of `openapi.yaml` says about writing its generated type that the type
/// itself cannot: generated into `ResponseSchemas` by `scripts/generate-openapi.sh`, one per object
/// component schema. Paths are member names joined by dots; arrays are transparent
/// (`sessions.last_refreshed_at` is that member of every element of `sessions`).
struct ResponseRules: Sendable {
    /// The members written as `null` when they have no value: required and nullable in the schema.
    /// (The generated `Codable` omits a nil optional, which is right for the optional members only.)
    let nulls: [[String]]
    /// The `date-time` members written with milliseconds (their pattern says so); every other time is
    /// written in whole seconds (``ContractTimestamp``).
    let milliseconds: Set<String>

    /// - Parameters:
    ///   - nulls: The dotted paths of the required nullable members.
    ///   - milliseconds: The dotted paths of the times with milliseconds.
    init(nulls: [String], milliseconds: [String]) {
        self.nulls = nulls.map { $0.split(separator: ".").map(String.init) }
        self.milliseconds = Set(milliseconds)
    }
}
