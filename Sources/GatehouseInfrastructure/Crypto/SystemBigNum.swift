import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Big-number arithmetic from the operating system's OpenSSL 3 (`BN_*` in `libcrypto.so.3`), loaded
/// at run time as `SystemOpenSSL` is: no headers, no build dependency.
///
/// Cognito SRP needs 3072-bit modular exponentiation. swift-crypto carries BoringSSL's `BN_*` but
/// exports no product for it (4.5.2 and 3.12.3), and pure Swift (attaswift/BigInt 6.0.1) took 21 ms
/// per modexp with a 256-bit exponent against libcrypto's 0.6 ms, 45 ms against 1.2 ms for a whole
/// proof check, and cannot keep secret exponents constant-time (srp-lab `srp-bench`, release build).
/// So there is no fallback: without libcrypto, `shared` is `nil` and SRP is unavailable.
///
/// Each call converts its operands, computes in a fresh `BN_CTX` and converts the result back; the
/// conversions cost microseconds against a modexp's milliseconds. Every `BIGNUM` is released with
/// `BN_clear_free` and `BN_CTX_free` wipes its pool, so no operand (a private value, a verifier, a
/// shared secret) is left in freed memory by this wrapper. The byte arrays passed in and returned are
/// the caller's to wipe.
package final class SystemBigNum: ModularArithmetic, @unchecked Sendable {
    typealias New = @convention(c) () -> OpaquePointer?
    typealias Free = @convention(c) (OpaquePointer?) -> Void
    typealias BinToBN = @convention(c) (UnsafePointer<UInt8>?, Int32, OpaquePointer?) -> OpaquePointer?
    typealias BNToBin = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?) -> Int32
    typealias NumBits = @convention(c) (OpaquePointer?) -> Int32
    /// `BN_mod_exp`, `BN_mod_mul`, `BN_mod_add`: `(r, a, b, m, ctx)`.
    typealias Ternary = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    /// `BN_mod_exp_mont_consttime(r, a, p, m, ctx, in_mont)`.
    typealias ModExpConstTime =
        @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    /// `BN_nnmod(r, a, m, ctx)`.
    typealias NNMod = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32

    let ctxNew: New
    let ctxFree: Free
    let clearFree: Free
    let bin2bn: BinToBN
    let bn2bin: BNToBin
    let numBits: NumBits
    let modExpPublic: Ternary
    let modExpConstTime: ModExpConstTime
    let modMulFunction: Ternary
    let modAddFunction: Ternary
    let nnmod: NNMod
    /// `ERR_clear_error`: a failed operation leaves entries on the thread's error queue, which would
    /// otherwise grow with every refused input.
    let clearErrors: (@convention(c) () -> Void)?

    /// Operands longer than this are refused rather than handed to OpenSSL (SRP's are at most 385 bytes).
    package static let maxOperandBytes = 4096

    /// The loaded library, or `nil` (not Linux, not installed, or missing a symbol).
    package static let shared: SystemBigNum? = load()

    static func load() -> SystemBigNum? {
        #if os(Linux)
        guard let library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let ctxNew = symbol("BN_CTX_new", New.self),
            let ctxFree = symbol("BN_CTX_free", Free.self),
            let clearFree = symbol("BN_clear_free", Free.self),
            let bin2bn = symbol("BN_bin2bn", BinToBN.self),
            let bn2bin = symbol("BN_bn2bin", BNToBin.self),
            let numBits = symbol("BN_num_bits", NumBits.self),
            let modExp = symbol("BN_mod_exp", Ternary.self),
            let modExpConstTime = symbol("BN_mod_exp_mont_consttime", ModExpConstTime.self),
            let modMul = symbol("BN_mod_mul", Ternary.self),
            let modAdd = symbol("BN_mod_add", Ternary.self),
            let nnmod = symbol("BN_nnmod", NNMod.self)
        else {
            dlclose(library)
            return nil
        }
        let loaded = SystemBigNum(
            ctxNew: ctxNew,
            ctxFree: ctxFree,
            clearFree: clearFree,
            bin2bn: bin2bn,
            bn2bin: bn2bin,
            numBits: numBits,
            modExp: modExp,
            modExpConstTime: modExpConstTime,
            modMul: modMul,
            modAdd: modAdd,
            nnmod: nnmod,
            clearErrors: symbol("ERR_clear_error", (@convention(c) () -> Void).self)
        )
        // The self-check: 3^5 mod 7 = 5 both ways, 6·4 mod 7 = 3, 6+4 mod 7 = 3, 300 mod 7 = 6.
        guard loaded.modExp([3], [5], modulus: [7], secretExponent: false) == [5],
            loaded.modExp([3], [5], modulus: [7], secretExponent: true) == [5],
            loaded.modMul([6], [4], modulus: [7]) == [3],
            loaded.modAdd([6], [4], modulus: [7]) == [3],
            loaded.mod([0x01, 0x2c], modulus: [7]) == [6]
        else { return nil }
        return loaded
        #else
        return nil
        #endif
    }

    private init(
        ctxNew: @escaping New,
        ctxFree: @escaping Free,
        clearFree: @escaping Free,
        bin2bn: @escaping BinToBN,
        bn2bin: @escaping BNToBin,
        numBits: @escaping NumBits,
        modExp: @escaping Ternary,
        modExpConstTime: @escaping ModExpConstTime,
        modMul: @escaping Ternary,
        modAdd: @escaping Ternary,
        nnmod: @escaping NNMod,
        clearErrors: (@convention(c) () -> Void)?
    ) {
        self.ctxNew = ctxNew
        self.ctxFree = ctxFree
        self.clearFree = clearFree
        self.bin2bn = bin2bn
        self.bn2bin = bn2bin
        self.numBits = numBits
        self.modExpPublic = modExp
        self.modExpConstTime = modExpConstTime
        self.modMulFunction = modMul
        self.modAddFunction = modAdd
        self.nnmod = nnmod
        self.clearErrors = clearErrors
    }

    package func modExp(_ base: [UInt8], _ exponent: [UInt8], modulus: [UInt8], secretExponent: Bool) -> [UInt8]? {
        compute([base, exponent, modulus]) { result, operands, ctx in
            secretExponent
                ? modExpConstTime(result, operands[0], operands[1], operands[2], ctx, nil)
                : modExpPublic(result, operands[0], operands[1], operands[2], ctx)
        }
    }

    package func modMul(_ a: [UInt8], _ b: [UInt8], modulus: [UInt8]) -> [UInt8]? {
        compute([a, b, modulus]) { result, operands, ctx in modMulFunction(result, operands[0], operands[1], operands[2], ctx) }
    }

    package func modAdd(_ a: [UInt8], _ b: [UInt8], modulus: [UInt8]) -> [UInt8]? {
        compute([a, b, modulus]) { result, operands, ctx in modAddFunction(result, operands[0], operands[1], operands[2], ctx) }
    }

    package func mod(_ a: [UInt8], modulus: [UInt8]) -> [UInt8]? {
        compute([a, modulus]) { result, operands, ctx in nnmod(result, operands[0], operands[1], ctx) }
    }

    /// Runs one OpenSSL operation (`body` answers its return code, 1 for success) on fresh `BIGNUM`s
    /// and answers the result as minimal big-endian bytes. Every `BIGNUM` and the context are freed
    /// (and wiped) on every path.
    private func compute(
        _ operands: [[UInt8]],
        _ body: (OpaquePointer, [OpaquePointer], OpaquePointer) -> Int32
    ) -> [UInt8]? {
        guard operands.allSatisfy({ $0.count <= Self.maxOperandBytes }), let ctx = ctxNew() else { return nil }
        defer { ctxFree(ctx) }
        var numbers: [OpaquePointer] = []
        defer { for number in numbers { clearFree(number) } }
        // BN_bin2bn(NULL, 0, NULL) makes a fresh zero, so `result` is allocated the same way.
        for bytes in operands + [[]] {
            let number = bytes.withUnsafeBufferPointer { bin2bn($0.baseAddress, Int32($0.count), nil) }
            guard let number else { return nil }
            numbers.append(number)
        }
        guard let result = numbers.last else { return nil }
        guard body(result, Array(numbers.dropLast()), ctx) == 1 else {
            clearErrors?()
            return nil
        }
        let count = (Int(numBits(result)) + 7) / 8
        var out = [UInt8](repeating: 0, count: count)
        let written = out.withUnsafeMutableBufferPointer { bn2bin(result, $0.baseAddress) }
        guard Int(written) == count else { return nil }
        return out
    }
}
