import Foundation
import Testing

@testable import GatehouseCore

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
        let policy = try SMSCountryPolicy.parse(countries: "US, ca,GB,353")
        #expect(policy.allowedCountries == ["US", "CA", "GB", "IE"], "353 belongs to Ireland alone")
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
        let policy = SMSCountryPolicy(allowedCountries: ["US", "CA", "GB", "IT"])
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

    @Test(arguments: ["3", "0", "+0", "1234", "44a", "all", "*", "ZZ", "USA", "U"])
    func aSettingThatIsNotACountryNamesTheVariable(_ value: String) {
        let error = #expect(throws: GatehouseError.self) { try SMSCountryPolicy.parse(countries: "US,\(value)") }
        #expect(error?.cause?.contains("GATEHOUSE_SMS_COUNTRIES") == true)
    }

    /// A shared calling code would admit more than the operator meant: refused, naming what it admits.
    @Test(arguments: [("1", ["US", "CA", "JM", "DO"]), ("+44", ["GB", "IM", "GG", "JE"]), ("7", ["RU", "KZ"])])
    func aSharedCallingCodeIsRefusedWithTheCountriesItWouldAdmit(_ value: String, _ named: [String]) {
        let error = #expect(throws: GatehouseError.self) { try SMSCountryPolicy.parse(countries: value) }
        for country in named { #expect(error?.cause?.contains(country) == true, "\(String(describing: error?.cause))") }
    }

    /// The review's reproduction: with the UK and North America "allowed" by calling code, texts went to
    /// Jamaica, the Dominican Republic, Grenada, Antigua, Guam and the Crown Dependencies. By country,
    /// `US,CA,GB` admits exactly those three.
    @Test(
        arguments: [
            ("+1 876 555 0100", nil), ("+1 809 555 0100", nil), ("+1 829 555 0100", nil), ("+1 473 555 0100", nil), ("+1 268 555 0100", nil),
            ("+1 671 555 0100", nil), ("+1 787 555 0100", nil), ("+44 7624 123456", nil), ("+44 1624 123456", nil), ("+44 7781 123456", nil),
            ("+44 7797 123456", nil), ("+44 1534 123456", nil), ("+44 1481 123456", nil), ("+1 212 555 0100", "US"), ("+1 415 555 0100", "US"),
            ("+1 416 555 0100", "CA"), ("+1 604 555 0100", "CA"), ("+44 7700 900123", "GB"), ("+44 20 7946 0958", "GB"), ("+44 7400 123456", "GB"),
        ] as [(String, String?)]
    )
    func usCanadaAndTheUKAdmitExactlyThoseCountries(_ typed: String, _ country: String?) throws {
        let policy = try SMSCountryPolicy.parse(countries: "US,CA,GB")
        let number = try PhoneNumber(parsing: typed)
        if let country {
            #expect(CountryPrefixTable.shipped.country(of: try policy.canonical(number)) == country)
        } else {
            #expect(throws: SMSCountryPolicy.Refusal.countryNotAllowed) { try policy.check(number) }
        }
    }

    /// Numbers the table cannot place are refused, whatever is allowed: an area code not in service.
    @Test func numbersTheTableCannotPlaceAreRefused() throws {
        let policy = SMSCountryPolicy(allowedCountries: CountryPrefixTable.shipped.countries)
        #expect(throws: SMSCountryPolicy.Refusal.countryNotAllowed) { try policy.check(PhoneNumber(parsing: "+1 555 555 0100")) }
        #expect(throws: SMSCountryPolicy.Refusal.countryNotAllowed) { try policy.check(PhoneNumber(parsing: "+1 800 555 0100")) }
        #expect(throws: SMSCountryPolicy.Refusal.countryNotAllowed) { try policy.check(PhoneNumber(parsing: "+881 6 1234 5678")) }
        try policy.check(PhoneNumber(parsing: "+1 876 555 0100"))  // placeable, and allowed here
    }

    /// The shipped table reads, places the shared codes by their longest prefix, and gives every line a
    /// calling code (so the trunk-0 rule always knows where the national number starts).
    @Test func theShippedTablePlacesSharedCodesByTheLongestPrefix() throws {
        let table = CountryPrefixTable.shipped
        let cases: [(String, String?)] = [
            ("12125550100", "US"), ("14165550100", "CA"), ("18765550100", "JM"), ("18095550100", "DO"), ("447624123456", "IM"),
            ("447700900123", "GB"), ("447911123456", "GG"), ("447400123456", "GB"), ("77011234567", "KZ"), ("74951234567", "RU"),
            ("19005550100", nil), ("353123456789", "IE"), ("4915112345678", "DE"),
        ]
        for (digits, country) in cases { #expect(table.country(ofDigits: Substring(digits)) == country, "\(digits)") }
        for prefix in table.countryByPrefix.keys { #expect(table.callingCode(ofDigits: Substring(prefix)) != nil, "\(prefix)") }
        #expect(table.countries.count > 200)
        #expect(throws: CountryPrefixTable.Malformed.self) { try CountryPrefixTable(parsing: "44\tGB\n44\tIM\n") }
        #expect(throws: CountryPrefixTable.Malformed.self) { try CountryPrefixTable(parsing: "+44\tGB\n") }
    }
}
