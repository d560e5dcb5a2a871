import { parseArgs } from 'node:util';
import { migrate, openDatabase } from '@logo-review/db';
import { loadConfig } from './config.ts';
import { createUser, setPassword } from './services/accounts.service.ts';

const USAGE = `Usage:
  npm run admin -- create-user --organization "<name>" --username <u> --password <p> [--first-name <a>] [--last-name <b>] [--email <e>]
  npm run admin -- set-password --username <u> --password <p>`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      organization: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      email: { type: 'string' },
    },
    strict: true,
  });
  const need = (name: keyof typeof values) => {
    const v = values[name];
    if (typeof v !== 'string' || v === '') throw new Error(`--${name} is required\n${USAGE}`);
    return v;
  };
  if (command !== 'create-user' && command !== 'set-password') throw new Error(USAGE);
  const config = loadConfig();
  // Refuses (with a clear message) when a running server holds the embedded database.
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    if (command === 'create-user') {
      const user = await createUser(db, {
        organization: need('organization'),
        username: need('username'),
        password: need('password'),
        firstName: values['first-name'],
        lastName: values['last-name'],
        email: values.email,
      });
      console.log(user.id);
      if (user.newApiKey)
        console.error(
          `created organization '${values.organization}'; its API key, shown only now: ${user.newApiKey}`,
        );
    } else {
      await setPassword(db, need('username'), need('password'));
      console.log(`password of ${values.username} changed`);
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
