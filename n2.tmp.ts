import { runSelfJailbreak } from './src/constitutional/self-jailbreak.ts';
const t = performance.now(); const r = runSelfJailbreak(); console.log(performance.now() - t);
for (const f of r.families) console.log(f.family, f.detection_rate, f.detected, f.total);
