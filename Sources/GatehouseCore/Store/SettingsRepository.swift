import Foundation

/// Small key-value settings the instances must agree on, written once by whichever starts first.
public protocol SettingsRepository: Sendable {
    func setting(_ key: String) async throws -> String?
    /// Stores `value` unless the key is set; returns the stored value (the first writer wins).
    func insertSettingIfAbsent(_ key: String, value: String) async throws -> String
}
