-- One address floods sign-in: each request a new account and a wrong password, from the
-- X-Forwarded-For address 203.0.113.50 (the server must trust 127.0.0.1 as a proxy).
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("POST", "/auth/signin", {["Content-Type"] = "application/json", ["X-Forwarded-For"] = "203.0.113.50"},
        '{"email":"flood' .. counter .. '@example.com","password":"wrong pass 1"}')
end
