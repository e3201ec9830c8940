import { priceResolver } from './compare.js';

export default priceResolver('above');
