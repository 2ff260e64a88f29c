import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseMessaging

extension GatehouseConfiguration {
    /// Reads where text messages go (`GATEHOUSE_SMS`: `outbox`, the default, or `sns`).
    /// - Parameter reader: The environment.
    /// - Throws: ``ConfigurationError`` naming the variable at fault.
    mutating func readSMS(_ reader: EnvironmentReader) throws {
        do {
            sms = try Self.smsTransport(reader.string("GATEHOUSE_SMS") ?? "outbox", environment: reader.env)
        } catch let error as DeliverySettingsError {
            throw ConfigurationError("\(error.variable): \(error.message)")
        }
        do {
            smsCountries = try SMSCountryPolicy.parse(countries: reader.string("GATEHOUSE_SMS_COUNTRIES"))
        } catch let error as GatehouseError {
            throw ConfigurationError(error.cause ?? "GATEHOUSE_SMS_COUNTRIES is not a list of countries (ISO 3166 codes such as US,CA,GB)")
        }
        if let daily = try reader.int("GATEHOUSE_SMS_DAILY_LIMIT", in: 1...10_000_000) {
            pool.rateLimits.smsDaily = RateLimitRule(name: "sms.day", freeAttempts: daily, window: 86_400)
        }
        if let cooldown = try reader.int("GATEHOUSE_SMS_COOLDOWN", in: 1...3600) {
            pool.rateLimits.smsPerNumber = RateLimitRule(name: "sms.number", freeAttempts: 1, window: TimeInterval(cooldown))
        }
        if let perNumber = try reader.int("GATEHOUSE_SMS_NUMBER_DAILY_CAP", in: 1...1000) {
            pool.rateLimits.smsPerNumberDaily = RateLimitRule(name: "sms.number.day", freeAttempts: perNumber, window: 86_400)
        }
        if let perClient = try reader.int("GATEHOUSE_SMS_CLIENT_HOURLY_CAP", in: 1...100_000) {
            pool.rateLimits.smsPerClient = RateLimitRule(name: "sms.client", freeAttempts: perClient, window: 3600)
        }
        if let perPrefix = try reader.int("GATEHOUSE_SMS_PREFIX_HOURLY_CAP", in: 1...100_000) {
            pool.rateLimits.smsPerPrefix = RateLimitRule(name: "sms.prefix", freeAttempts: perPrefix, window: 3600)
        }
    }

    /// The SMS transport settings `value` names.
    /// - Parameters:
    ///   - value: `GATEHOUSE_SMS`.
    ///   - environment: The environment (the SNS settings and the AWS credentials).
    /// - Returns: The settings.
    /// - Throws: ``DeliverySettingsError`` naming the variable at fault.
    static func smsTransport(_ value: String, environment: [String: String]) throws -> SMSTransportSettings {
        switch value.lowercased() {
        case "outbox":
            return .outbox
        case "sns":
            return .sns(try SNSSettings(environment: environment))
        default:
            throw DeliverySettingsError(variable: "GATEHOUSE_SMS", "must be outbox or sns (it is '\(value.prefix(40))').")
        }
    }
}
