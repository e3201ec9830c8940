import { ModelFakes } from '../../src/demo/model-fakes.js';

export { ModelFakes, demoResponder, type FakeCall, type FakeReply } from '../../src/demo/model-fakes.js';

/** Started vendor fakes plus the SVC_MODELS value that points an app's four-vendor panel at them. */
export async function startModelFakes(): Promise<{ fakes: ModelFakes; env: Record<string, string> }> {
  const fakes = await new ModelFakes().start();
  const entries = fakes.specs('fake-1').map((s) => ({
    id: s.id,
    vendor: s.vendor,
    model: s.model,
    base_url: s.baseUrl,
    price_in_per_mtok: 1,
    price_out_per_mtok: 4,
    vision: true,
  }));
  return { fakes, env: { SVC_MODELS: JSON.stringify(entries) } };
}
