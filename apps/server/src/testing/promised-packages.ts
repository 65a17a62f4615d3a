/**
 * The packages issue #15 promises filter authors, in the order they are listed to them: the server test
 * checks GET /v1/filter_environment against Python's versions, the browser test the Filters page and FAQ.
 * One list for both, so the two cannot drift apart.
 */
export const PROMISED_PACKAGES = [
  'numpy',
  'scipy',
  'pandas',
  'astropy',
  'statsmodels',
  'scikit-learn',
  'matplotlib',
  'PyTorch',
  'PyYAML',
  'requests',
  'sncosmo',
  'extinction',
  'iminuit',
  'emcee',
  'healpy',
  'scikit-image',
  'xgboost',
];
