/// Modular arithmetic on non-negative integers written as big-endian bytes.
///
/// Operands may carry leading zero bytes; results never do, and zero is the empty array. Every
/// operation answers `nil` when the backend fails (a zero or even modulus where an odd one is
/// needed, an allocation failure), never a wrong number. Cognito SRP runs on this, so its 3072-bit
/// group can be computed by libcrypto (`SystemBigNum`) or by any other backend for tests and
/// measurements.
package protocol ModularArithmetic: Sendable {
    /// `base ^ exponent mod modulus`. With `secretExponent`, the running time must not depend on the
    /// exponent's bits (a private SRP value or a password hash), and the modulus must be odd.
    func modExp(_ base: [UInt8], _ exponent: [UInt8], modulus: [UInt8], secretExponent: Bool) -> [UInt8]?

    /// `a · b mod modulus`.
    func modMul(_ a: [UInt8], _ b: [UInt8], modulus: [UInt8]) -> [UInt8]?

    /// `a + b mod modulus`; `a` and `b` need not be reduced.
    func modAdd(_ a: [UInt8], _ b: [UInt8], modulus: [UInt8]) -> [UInt8]?

    /// `a mod modulus`.
    func mod(_ a: [UInt8], modulus: [UInt8]) -> [UInt8]?
}
