import { valueResolver } from './compare.js';

export default valueResolver('above');
