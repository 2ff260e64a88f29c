import GatehouseCore

extension Doctor {
    /// Which algorithm the embedded pool signs with (`GATEHOUSE_TOKEN_ALG`), and whether the stored
    /// active keys already are of it (if not, the next `gatehouse serve` switches them).
    /// - Parameters:
    ///   - c: The configuration.
    ///   - activeAlgorithms: The algorithms of the stored active keys (empty before the first start).
    /// - Returns: An `ok` finding naming the algorithm, or a warning that a switch is pending.
    static func tokenAlgorithmFinding(_ c: GatehouseConfiguration, activeAlgorithms: Set<String>) -> DoctorFinding {
        let wanted = c.tokenAlgorithm.rawValue
        let verifiers =
            c.tokenAlgorithm == .es256
            ? " Every verifier of these tokens must accept ES256 (docs/configuration.md lists those that do not)." : ""
        guard !activeAlgorithms.isEmpty, activeAlgorithms != [wanted] else {
            return .ok("embedded.token-alg", "Tokens are signed with \(wanted) (GATEHOUSE_TOKEN_ALG).\(verifiers)")
        }
        return .warning(
            "embedded.token-alg",
            "GATEHOUSE_TOKEN_ALG is \(wanted) but the active keys are \(activeAlgorithms.sorted().joined(separator: ", ")).",
            fix:
                "The next `gatehouse serve` switches them to \(wanted); the old keys keep verifying for \(Int(c.signingKeyOverlap)) s. Give every instance the same setting.\(verifiers)"
        )
    }
}
