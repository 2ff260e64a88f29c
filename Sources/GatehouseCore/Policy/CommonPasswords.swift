import Foundation

/// Frequently breached passwords that would otherwise satisfy the default policy (8+ characters
/// with a digit), compared case-insensitively. A short list on purpose: it catches what attackers
/// try first without shipping a breach corpus.
enum CommonPasswords {
    static func contains(_ password: String) -> Bool { list.contains(password.lowercased()) }

    static let list: Set<String> = [
        "00000000", "11111111", "111111111", "11223344", "12121212", "123123123", "123321123", "12341234",
        "12345678", "123456789", "1234567890", "12345qwert", "1234qwer", "147258369", "159753456", "1a2b3c4d",
        "1q2w3e4r", "1q2w3e4r5t", "1qaz2wsx", "1qazxsw2", "456789123", "741852963", "789456123", "87654321",
        "88888888", "963852741", "99999999", "a1234567", "a1b2c3d4", "aa123456", "abc12345", "abc123456",
        "abcd1234", "admin123", "admin1234", "administrator1", "apple123", "arsenal1", "asdf1234", "asdfghjkl1",
        "ashley123", "autumn2025", "baseball1", "batman123", "changeme1", "changeme123", "charlie1", "chelsea1",
        "cognito123", "computer1", "dragon123", "football1", "freedom1", "gatehouse1", "google123", "hello123",
        "hello1234", "hockey123", "iloveyou1", "iloveyou2", "internet1", "jennifer1", "jessica1", "killer123",
        "letmein1", "letmein123", "liverpool1", "login123", "master123", "michael1", "monkey123", "p@ssw0rd",
        "p@ssword1", "pa55w0rd", "pa55word", "passw0rd", "password01", "password1", "password12", "password123",
        "password1234", "password2", "password9", "pokemon123", "princess1", "q1w2e3r4", "q1w2e3r4t5", "qazwsx123",
        "qwer1234", "qwerty123", "qwerty1234", "qwerty12345", "qwertyuiop1", "samsung1", "secret123", "shadow123",
        "soccer123", "spring2025", "starwars1", "summer2024", "summer2025", "summer2026", "sunshine1", "superman1",
        "test1234", "test12345", "testing123", "trustno1", "user1234", "welcome1", "welcome123", "welcome2024",
        "welcome2025", "welcome2026", "whatever1", "winter2024", "winter2025", "winter2026", "zaq12wsx", "zxcv1234",
        "zxcvbnm123",
    ]
}
