import Foundation
import GatehouseCore
import Testing

/// Issue 16: numbers are validated and kept in E.164; only allowed countries, never premium ranges.
@Suite("Phone numbers: E.164 parsing and the SMS country policy")
struct PhoneNumberTests {
    @Test(arguments: [
        ("+44 20 7946 0958", "+442079460958"),
        ("+1 (415) 555-0100", "+14155550100"),
        ("0044 20 7946 0958", "+442079460958"),
        ("+353.1.234.5678", "+35312345678"),
        ("  +33612345678 ", "+33612345678"),
    ])
    func typedNumbersBecomeE164(_ typed: String, _ expected: String) throws {
        #expect(try PhoneNumber(parsing: typed).e164 == expected)
    }

    @Test(arguments: [
        ("", PhoneNumber.Problem.empty),
        ("020 7946 0958", .notInternational),
        ("4155550100", .notInternational),
        ("+1-800-FLOWERS", .invalidCharacter),
        ("+1 415 555 0100 ext 12", .invalidCharacter),
        ("++14155550100", .invalidCharacter),
        ("+1415\n5550100", .invalidCharacter),
        ("+1415\u{0}5550100", .invalidCharacter),
        ("+١٤١٥٥٥٥٠١٠٠", .invalidCharacter),
        ("+0123456789", .invalidCountryCode),
        ("+1234567", .tooShort),
        ("+1234567890123456", .tooLong),
        (String(repeating: "1", count: 100), .tooLong),
    ])
    func malformedNumbersAreRefusedWithAReason(_ typed: String, _ problem: PhoneNumber.Problem) {
        #expect(throws: problem) { try PhoneNumber(parsing: typed) }
    }

    @Test func maskedNumbersShowTheCountryAndTheLastDigitsOnly() throws {
        let number = try PhoneNumber(parsing: "+44 20 7946 0958")
        #expect(number.masked == "+44…58" && "\(number)" == "+44…58")
    }

    @Test func onlyAllowedCountriesAndNoPremiumRanges() throws {
        let policy = try SMSCountryPolicy.parse(countries: "1, +44,353")
        #expect(policy.allowedCodes == ["1", "44", "353"])
        try policy.check(PhoneNumber(parsing: "+1 415 555 0100"))
        try policy.check(PhoneNumber(parsing: "+44 7700 900123"))
        try policy.check(PhoneNumber(parsing: "+353 1 234 5678"))
        #expect(throws: SMSCountryPolicy.Refusal.countryNotAllowed) { try policy.check(PhoneNumber(parsing: "+33 6 12 34 56 78")) }
        #expect(throws: SMSCountryPolicy.Refusal.countryNotAllowed) { try policy.check(PhoneNumber(parsing: "+881 6 1234 5678")) }
        #expect(throws: SMSCountryPolicy.Refusal.refusedPrefix) { try policy.check(PhoneNumber(parsing: "+1 900 555 0100")) }
        #expect(throws: SMSCountryPolicy.Refusal.refusedPrefix) { try policy.check(PhoneNumber(parsing: "+44 909 8790 000")) }
        #expect(throws: SMSCountryPolicy.Refusal.refusedPrefix) { try policy.check(PhoneNumber(parsing: "+44 70 1234 5678")) }
    }

    @Test func oneNumberHasOneCanonicalFormSoItCannotPassForSeveral() throws {
        let policy = SMSCountryPolicy(allowedCodes: ["1", "44", "39"])
        let canonical = { (typed: String) in try policy.canonical(PhoneNumber(parsing: typed)).e164 }
        // A trunk 0 typed after the country code is dropped: the same number, the same quotas.
        #expect(try canonical("+44 (0)7700 900123") == "+447700900123")
        #expect(try canonical("0044 07700 900123") == "+447700900123")
        #expect(try canonical("+447700900123") == "+447700900123")
        // Italy keeps its leading 0 (it is part of the number).
        #expect(try canonical("+39 06 1234 5678") == "+390612345678")
        // Refused ranges are checked on the canonical form: +44 (0)9… is +44 9….
        #expect(throws: SMSCountryPolicy.Refusal.refusedPrefix) { try policy.canonical(PhoneNumber(parsing: "+44 (0)909 8790 000")) }
        #expect(throws: SMSCountryPolicy.Refusal.notANumber) { try policy.canonical(PhoneNumber(parsing: "+44 00 7700 900123")) }
        // North America: exactly 10 digits, area code and exchange not starting with 0 or 1.
        #expect(throws: SMSCountryPolicy.Refusal.notANumber) { try policy.canonical(PhoneNumber(parsing: "+1 1 900 555 0100")) }
        #expect(throws: SMSCountryPolicy.Refusal.notANumber) { try policy.canonical(PhoneNumber(parsing: "+1 1 415 555 0100")) }
        #expect(throws: SMSCountryPolicy.Refusal.notANumber) { try policy.canonical(PhoneNumber(parsing: "+1 415 155 0100")) }
        #expect(throws: SMSCountryPolicy.Refusal.notANumber) { try policy.canonical(PhoneNumber(parsing: "+1 415 555 01000")) }
        #expect(try canonical("+1 (415) 555-0100") == "+14155550100")
    }

    @Test func noCountriesMeansPhoneSignInIsOff() throws {
        for value in [nil, "", " , "] {
            let policy = try SMSCountryPolicy.parse(countries: value)
            #expect(!policy.isEnabled)
            #expect(throws: SMSCountryPolicy.Refusal.disabled) { try policy.check(PhoneNumber(parsing: "+14155550100")) }
        }
    }

    @Test(arguments: ["3", "0", "+0", "1234", "44a", "all", "*"])
    func aSettingThatIsNotACountryCodeNamesTheVariable(_ value: String) {
        let error = #expect(throws: GatehouseError.self) { try SMSCountryPolicy.parse(countries: "1,\(value)") }
        #expect(error?.cause?.contains("GATEHOUSE_SMS_COUNTRIES") == true)
    }
}
