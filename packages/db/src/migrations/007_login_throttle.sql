-- Failed logins per account name from any address: beyond the first few, each failure makes the
-- next attempt on that name wait longer (see apps/server/src/auth/account-throttle.ts). Names that
-- match no user are counted too, so a refusal says nothing about which accounts exist.
CREATE TABLE login_failures (
  username text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure timestamptz NOT NULL
);
CREATE INDEX login_failures_last ON login_failures (last_failure);

-- Addresses a user has logged in from: attempts from them skip the account slowdown, so an
-- attacker guessing from elsewhere cannot lock the real user out.
CREATE TABLE login_known_addresses (
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  address text NOT NULL,
  last_success timestamptz NOT NULL,
  PRIMARY KEY (user_id, address)
);
