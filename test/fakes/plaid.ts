export { PlaidFake, DEMO_PUBLIC_TOKEN, SANDBOX_HOLDINGS, SANDBOX_SECURITIES } from '../../src/demo/plaid-fake.js';
